//! Field tables: each engine states a scenario field's facts once, in its table (`params()` in
//! the engine's `scenario.rs`): path, label, kind, default, range, unit and options. Everything
//! else reads them from there:
//!
//! 1. the strict parser ([`crate::json::from_value`]) refuses a number outside the field's range,
//!    naming the field's path (`workload.jobs[3].tasks` matches the entry `workload.jobs[].tasks`);
//! 2. serde's defaults are functions made by [`table_defaults!`] that read the table's default;
//! 3. enum ids, labels and form options are stated once per enum by [`choices!`];
//! 4. the page generates its form controls from the table (`engines()` in the wasm boundary),
//!    leaving out the entries that are rules on list items ([`Param::rule`]).
//!
//! `tests/fields.rs` checks, for every engine and every field, that a scenario omitting the field
//! gets the table's default and that a value just outside the range is refused at that path.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// One form control.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Param {
    /// Dotted path of the field inside the scenario, e.g. `system.width`.
    pub path: &'static str,
    pub label: &'static str,
    /// `int`, `number`, `enum`, `bool`, `multi` (several of `options`), `string`, `text` (a
    /// file's text of many lines: the page edits it in a text box it can also fill from a
    /// file), or `uint64`: a whole number from 0 to 2^64-1 (a seed) that the form edits as text
    /// and writes into the scenario as the digits typed, a JSON number, never through a
    /// JavaScript number (exact only up to 2^53); it has no `min`/`max`.
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// The value must be more than `min` (a time, a ratio), not merely at least `min`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub min_exclusive: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    pub default: serde_json::Value,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<Choice>,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub unit: &'static str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub help: &'static str,
    /// What leaving the field empty means (e.g. `all`), shown in the empty field; empty when a
    /// value is required or the default is shown as a value.
    #[serde(skip_serializing_if = "str::is_empty")]
    pub empty: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub show_if: Option<ShowIf>,
    /// Whether the page shows a control for it; `false` for a rule on list items
    /// ([`Param::rule`]), which the parser enforces but no form control edits.
    #[serde(skip)]
    pub form: bool,
}

/// One option of an `enum` or `multi` control.
#[derive(Debug, Clone, Serialize)]
pub struct Choice {
    pub value: &'static str,
    pub label: &'static str,
}

/// Show a control only when another field has a given value (or is not a given value).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShowIf {
    pub path: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equals: Option<&'static str>,
    /// Show when the field has any of these values (written as an `equals` list).
    #[serde(rename = "equals", skip_serializing_if = "Vec::is_empty")]
    pub equals_any: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_equals: Option<&'static str>,
    /// Show when the field is present at all (e.g. a part of the scenario the user asked for).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub present: bool,
}

impl Param {
    /// A control with no bounds, options or condition; chain the setters below.
    pub fn new(
        path: &'static str,
        label: &'static str,
        kind: &'static str,
        default: serde_json::Value,
    ) -> Self {
        Param {
            path,
            label,
            kind,
            min: None,
            max: None,
            min_exclusive: false,
            step: None,
            default,
            options: Vec::new(),
            unit: "",
            help: "",
            empty: "",
            show_if: None,
            form: true,
        }
    }
    /// A field the parser checks but the form does not show: an item of a list, with `[]` for
    /// the index (`workload.jobs[].tasks`), or a field only a hand-written scenario gives.
    pub fn rule(path: &'static str, kind: &'static str) -> Self {
        Param {
            form: false,
            ..Param::new(path, "", kind, serde_json::Value::Null)
        }
    }
    /// Like [`Param::rule`], with a default the parser fills in when the field is absent.
    pub fn rule_with_default(
        path: &'static str,
        kind: &'static str,
        default: serde_json::Value,
    ) -> Self {
        Param {
            form: false,
            ..Param::new(path, "", kind, default)
        }
    }
    /// Whether this entry is about the value at `pattern`, the path being parsed with every list
    /// index written `[]`.
    pub fn is_at(&self, pattern: &str) -> bool {
        self.path == pattern
    }
    pub fn empty(mut self, meaning: &'static str) -> Self {
        self.empty = meaning;
        self
    }
    pub fn range(mut self, min: f64, max: f64) -> Self {
        self.min = Some(min);
        self.max = Some(max);
        self
    }
    /// The range `(min, max]`: more than `min`, at most `max` ("must be more than 0").
    pub fn range_above(mut self, min: f64, max: f64) -> Self {
        self.min_exclusive = true;
        self.range(min, max)
    }
    pub fn step(mut self, step: f64) -> Self {
        self.step = Some(step);
        self
    }
    pub fn options(mut self, opts: &[(&'static str, &'static str)]) -> Self {
        self.options = opts
            .iter()
            .map(|&(value, label)| Choice { value, label })
            .collect();
        self
    }
    /// The field's label (also for a [`Param::rule`], whose form is the list it belongs to).
    pub fn label(mut self, label: &'static str) -> Self {
        self.label = label;
        self
    }
    pub fn unit(mut self, unit: &'static str) -> Self {
        self.unit = unit;
        self
    }
    pub fn help(mut self, help: &'static str) -> Self {
        self.help = help;
        self
    }
    pub fn show_if(mut self, path: &'static str, equals: &'static str) -> Self {
        self.show_if = Some(ShowIf {
            path,
            equals: Some(equals),
            equals_any: Vec::new(),
            not_equals: None,
            present: false,
        });
        self
    }
    /// Shows the control only when `path` has one of `values`.
    pub fn show_if_any(mut self, path: &'static str, values: &[&'static str]) -> Self {
        self.show_if = Some(ShowIf {
            path,
            equals: None,
            equals_any: values.to_vec(),
            not_equals: None,
            present: false,
        });
        self
    }
    /// Shows the control only when the scenario has a value at `path` (an object or any value).
    pub fn show_if_present(mut self, path: &'static str) -> Self {
        self.show_if = Some(ShowIf {
            path,
            equals: None,
            equals_any: Vec::new(),
            not_equals: None,
            present: true,
        });
        self
    }
    pub fn show_unless(mut self, path: &'static str, not_equals: &'static str) -> Self {
        self.show_if = Some(ShowIf {
            path,
            equals: None,
            equals_any: Vec::new(),
            not_equals: Some(not_equals),
            present: false,
        });
        self
    }
}

/// The entry of `table` at `path` (written as in the table, `[]` for list indices).
pub fn find<'a>(table: &'a [Param], path: &str) -> Option<&'a Param> {
    table.iter().find(|p| p.path == path)
}

/// The table's default of the field at `path`, as the field's type: what serde fills in when the
/// field is absent (through the functions [`table_defaults!`] makes).
///
/// # Panics
/// When the table has no entry at `path` or its default does not have the field's type: a
/// mistake in the table that `tests/fields.rs` and every run catch at once.
pub fn default_of<T: DeserializeOwned>(table: &[Param], path: &str) -> T {
    let p = find(table, path).unwrap_or_else(|| panic!("the field table has no entry {path}"));
    serde_json::from_value(p.default.clone())
        .unwrap_or_else(|e| panic!("the field table's default of {path} has the wrong type: {e}"))
}

/// Serde default functions that read an engine's field table, one per field:
/// `table_defaults!(table; frames: usize = "frames")` makes `fn frames() -> usize`, which
/// returns the table's default at `frames`; the struct says `#[serde(default = "d::frames")]`.
/// `table` is a function returning the engine's `&'static [Param]`.
macro_rules! table_defaults {
    ($table:path; $($name:ident: $ty:ty = $path:literal),* $(,)?) => {
        $(
            #[doc = concat!("The field table's default of `", $path, "`.")]
            pub fn $name() -> $ty {
                $crate::params::default_of($table(), $path)
            }
        )*
    };
}
pub(crate) use table_defaults;

/// Declares a scenario enum with each variant's JSON id and label stated once, and derives from
/// them what used to be written in parallel (a variant may add a third text, its longer label in
/// the form's options): `Deserialize` (by id, with the strict parser's
/// "must be one of" message), `Serialize` (as the id), `id()`, `label()`, `from_id()`, `ALL` (in
/// declaration order), `IDS` and the form's `options()`.
///
/// ```ignore
/// choices! {
///     #[derive(Default)]
///     pub enum Backfill {
///         #[default]
///         None = ("none", "FCFS"),
///         Easy = ("easy", "EASY backfilling"),
///     }
/// }
/// ```
macro_rules! choices {
    (@form $label:literal) => { $label };
    (@form $label:literal, $form:literal) => { $form };
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vmeta:meta])* $variant:ident = ($id:literal, $label:literal $(, $form:literal)?)),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant),+
        }

        #[allow(dead_code)]
        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: [$name; [$($id),+].len()] = [$($name::$variant),+];
            /// Every variant's JSON id, in declaration order.
            pub const IDS: &'static [&'static str] = &[$($id),+];
            /// The JSON id.
            pub fn id(self) -> &'static str {
                match self {
                    $($name::$variant => $id),+
                }
            }
            /// The label shown in the page and in reports.
            pub fn label(self) -> &'static str {
                match self {
                    $($name::$variant => $label),+
                }
            }
            /// The variant whose JSON id is `id`.
            pub fn from_id(id: &str) -> Option<$name> {
                match id {
                    $($id => Some($name::$variant),)+
                    _ => None,
                }
            }
            /// `(id, form label)` of every variant, for the form's options: the label, or the
            /// longer text given for the form as a third element.
            pub fn options() -> &'static [(&'static str, &'static str)] {
                &[$(($id, $crate::params::choices!(@form $label $(, $form)?))),+]
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                struct V;
                impl<'de> serde::de::Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        write!(f, "one of {:?}", $name::IDS)
                    }
                    fn visit_str<E: serde::de::Error>(self, s: &str) -> std::result::Result<$name, E> {
                        $name::from_id(s).ok_or_else(|| E::unknown_variant(s, $name::IDS))
                    }
                    fn visit_enum<A: serde::de::EnumAccess<'de>>(
                        self,
                        data: A,
                    ) -> std::result::Result<$name, A::Error> {
                        use serde::de::VariantAccess;
                        let (id, rest): (String, _) = data.variant()?;
                        rest.unit_variant()?;
                        self.visit_str(&id)
                    }
                }
                d.deserialize_enum(stringify!($name), $name::IDS, V)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                let index = $name::ALL.iter().position(|v| v == self).unwrap_or(0) as u32;
                s.serialize_unit_variant(stringify!($name), index, self.id())
            }
        }
    };
}
pub(crate) use choices;

/// A field table built once: `static_table!(build)` is a `&'static [Param]` made by calling
/// `build()` the first time it is asked for.
macro_rules! static_table {
    ($build:path) => {{
        static TABLE: std::sync::OnceLock<Vec<$crate::params::Param>> = std::sync::OnceLock::new();
        TABLE.get_or_init($build).as_slice()
    }};
}
pub(crate) use static_table;
