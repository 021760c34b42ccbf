//! Parameter tables: each engine describes its scenario fields once, and the page generates its
//! form controls from that table (`engines()` in the wasm boundary). The engine's parser is the
//! authority on values; tests check that the defaults here match what the parser fills in.

use serde::Serialize;

/// One form control.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Param {
    /// Dotted path of the field inside the scenario, e.g. `system.width`.
    pub path: &'static str,
    pub label: &'static str,
    /// `int`, `number`, `enum`, `bool`, `multi` (several of `options`), `string`, or `uint64`: a
    /// whole number from 0 to 2^64-1 (a seed) that the form edits as text and writes into the
    /// scenario as the digits typed, a JSON number, never through a JavaScript number (exact
    /// only up to 2^53); it has no `min`/`max`.
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
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
            step: None,
            default,
            options: Vec::new(),
            unit: "",
            help: "",
            empty: "",
            show_if: None,
        }
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
