//! Strict JSON for scenarios, in two steps, each naming the JSON path of what it refuses:
//!
//! 1. [`parse`]: text to a [`Value`], refusing duplicate keys (plain `serde_json` keeps the last
//!    silently) and nesting deeper than [`MAX_DEPTH`]; syntax errors and numbers out of range
//!    (`1e400`) are reported at the path where the parser was.
//! 2. [`from_value`]: a [`Value`] to an engine's typed scenario through a strict deserializer
//!    that refuses a list where an object is expected (serde's derive would read `["x", 4]` as
//!    a struct), and words every type error for users, never with Rust type names: "must be a
//!    whole number from 1 to 512, got 1.5". A number is also checked against its field's range
//!    in the engine's field table ([`Param`], list items matched as `jobs[].tasks`), so a
//!    range is stated once, in the table; the message names that range, else the type's range:
//!    `usize` fields take 0 to 2^32-1 on every target (wasm32's `usize`), so both targets
//!    accept the same values.
//!
//! Numbers in messages are written compactly ([`crate::error::compact_number`]: `1e308`).

use crate::error::{compact_number, ScenarioError};
use crate::params::Param;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Expected, IntoDeserializer, MapAccess, SeqAccess,
    Unexpected, Visitor,
};
use serde_json::{Map, Number, Value};
use std::cell::RefCell;
use std::fmt;

/// Deepest nesting of `[` and `{` accepted (a scenario needs 4).
pub const MAX_DEPTH: usize = 64;

/// Parses JSON text, refusing duplicate keys and nesting deeper than [`MAX_DEPTH`].
///
/// # Errors
/// A [`ScenarioError`] at the path of the first problem.
pub fn parse(text: &str) -> Result<Value, ScenarioError> {
    let found = RefCell::new(None);
    let path = Path::default();
    let mut de = serde_json::Deserializer::from_str(text);
    let seed = ValueSeed {
        path: &path,
        depth: 0,
        found: &found,
    };
    let result = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    result.map_err(|e| {
        found
            .into_inner()
            .unwrap_or_else(|| ScenarioError::at("", syntax_message(&e)))
    })
}

/// `serde_json`'s message reworded: "not valid JSON: ... (line L, column C)".
fn syntax_message(e: &dyn fmt::Display) -> String {
    let m = e.to_string();
    let m = match m.rsplit_once(" at line ") {
        Some((what, pos)) => match pos.split_once(" column ") {
            Some((l, c)) => format!("{what} (line {l}, column {c})"),
            None => m.clone(),
        },
        None => m.clone(),
    };
    format!("not valid JSON: {m}")
}

fn key_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

/// The JSON path being visited, one buffer that each level extends and truncates again, so a
/// path is copied only when an error names it (`system.width`, `workload.jobs[3].tasks`).
///
/// Beside it, the same path with every list index written `[]` (`workload.jobs[].tasks`): the
/// form in which field tables name list items.
#[derive(Default)]
struct Path(RefCell<String>, RefCell<String>);

enum Seg<'k> {
    Key(&'k str),
    Index(usize),
}

impl Path {
    /// Runs `f` with `seg` appended to the path.
    fn with<R>(&self, seg: Seg, f: impl FnOnce() -> R) -> R {
        let (len, plen) = {
            let mut p = self.0.borrow_mut();
            let mut q = self.1.borrow_mut();
            let (len, plen) = (p.len(), q.len());
            match seg {
                Seg::Key(k) => {
                    if len > 0 {
                        p.push('.');
                        q.push('.');
                    }
                    p.push_str(k);
                    q.push_str(k);
                }
                Seg::Index(i) => {
                    use std::fmt::Write;
                    let _ = write!(p, "[{i}]");
                    q.push_str("[]");
                }
            }
            (len, plen)
        };
        let r = f();
        self.0.borrow_mut().truncate(len);
        self.1.borrow_mut().truncate(plen);
        r
    }
    fn get(&self) -> String {
        self.0.borrow().clone()
    }
    /// Whether the path, list indices written `[]`, is `pattern`.
    fn is(&self, pattern: &str) -> bool {
        *self.1.borrow() == pattern
    }
}

/// Builds a [`Value`] while tracking the path and depth; the first problem is kept in `found`.
struct ValueSeed<'a> {
    path: &'a Path,
    depth: usize,
    found: &'a RefCell<Option<ScenarioError>>,
}

impl<'a> ValueSeed<'a> {
    fn child(&self) -> ValueSeed<'a> {
        ValueSeed {
            path: self.path,
            depth: self.depth + 1,
            found: self.found,
        }
    }
    /// Records `e` at the current path unless a deeper problem was recorded already.
    fn blame<E: fmt::Display>(&self, e: E) -> E {
        let mut f = self.found.borrow_mut();
        if f.is_none() {
            *f = Some(ScenarioError::at(self.path.get(), syntax_message(&e)));
        }
        e
    }
    fn refuse<E: de::Error>(&self, err: ScenarioError) -> E {
        let mut f = self.found.borrow_mut();
        let msg = err.message.clone();
        f.get_or_insert(err);
        E::custom(msg)
    }
    fn enter<E: de::Error>(&self) -> Result<(), E> {
        if self.depth >= MAX_DEPTH {
            return Err(self.refuse(ScenarioError::at(
                "",
                format!("nested too deeply: at most {MAX_DEPTH} levels of [ ] and {{ }}"),
            )));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        match Number::from_f64(v) {
            Some(n) => Ok(Value::Number(n)),
            None => Err(self.refuse(ScenarioError::at(self.path.get(), "number out of range"))),
        }
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.enter()?;
        let mut items = Vec::new();
        loop {
            let next = self.path.with(Seg::Index(items.len()), || {
                seq.next_element_seed(self.child())
                    .map_err(|e| self.blame(e))
            })?;
            match next {
                Some(v) => items.push(v),
                None => return Ok(Value::Array(items)),
            }
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.enter()?;
        let mut obj = Map::new();
        loop {
            let key: String = match map.next_key() {
                Ok(Some(k)) => k,
                Ok(None) => return Ok(Value::Object(obj)),
                Err(e) => return Err(self.blame(e)),
            };
            let v = self.path.with(Seg::Key(&key), || {
                if obj.contains_key(&key) {
                    return Err(self.refuse(ScenarioError::at(
                        self.path.get(),
                        format!(
                            "duplicate key {key:?}: each key may appear only once in an object"
                        ),
                    )));
                }
                map.next_value_seed(self.child()).map_err(|e| self.blame(e))
            })?;
            obj.insert(key, v);
        }
    }
}

/// Deserializes `value` into `T` strictly (see the module doc); `params` give the ranges named
/// in messages.
///
/// # Errors
/// A [`ScenarioError`] at the path of the first problem.
pub fn from_value<T: DeserializeOwned>(
    value: &Value,
    params: &[Param],
) -> Result<T, ScenarioError> {
    let cx = Cx {
        path: Path::default(),
        params,
    };
    T::deserialize(Strict { v: value, cx: &cx }).map_err(|e| {
        let e = e.at("");
        ScenarioError::at(e.path.unwrap_or_default(), e.message)
    })
}

/// An error of the strict deserializer; the path is filled in on the way out.
#[derive(Debug)]
pub struct StrictError {
    path: Option<String>,
    /// A required field that is missing: the path gets `.field` when it is filled in.
    missing: Option<&'static str>,
    message: String,
}

impl StrictError {
    fn new(message: impl Into<String>) -> Self {
        StrictError {
            path: None,
            missing: None,
            message: message.into(),
        }
    }
    /// Gives the error the path `path` unless it has one already.
    fn at(mut self, path: &str) -> Self {
        if self.path.is_none() {
            self.path = Some(match self.missing {
                Some(f) => key_path(path, f),
                None => path.to_string(),
            });
        }
        self
    }
}

impl fmt::Display for StrictError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StrictError {}

/// What a value of the type serde expected is, in words.
fn expected_words(exp: &dyn Expected) -> String {
    let s = exp.to_string();
    match s.as_str() {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128"
        | "isize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "a sequence" => "a list".into(),
        "variant identifier" | "field identifier" => "a name".into(),
        _ if s.starts_with("struct ") => "an object".into(),
        _ => s,
    }
}

fn unexpected_words(u: Unexpected) -> String {
    match u {
        Unexpected::Unsigned(n) => n.to_string(),
        Unexpected::Signed(n) => n.to_string(),
        Unexpected::Float(v) => compact_number(v),
        Unexpected::Str(s) => format!("{:?}", truncate(s, 40)),
        Unexpected::Bool(b) => b.to_string(),
        Unexpected::Unit => "null".into(),
        Unexpected::Seq => "a list".into(),
        Unexpected::Map => "an object".into(),
        other => other.to_string(),
    }
}

impl de::Error for StrictError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        StrictError::new(msg.to_string())
    }
    fn invalid_type(unexp: Unexpected, exp: &dyn Expected) -> Self {
        StrictError::new(format!(
            "must be {}, got {}",
            expected_words(exp),
            unexpected_words(unexp)
        ))
    }
    fn invalid_value(unexp: Unexpected, exp: &dyn Expected) -> Self {
        Self::invalid_type(unexp, exp)
    }
    fn invalid_length(len: usize, exp: &dyn Expected) -> Self {
        StrictError::new(format!("has {len} items; expected {}", expected_words(exp)))
    }
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        StrictError::new(one_of(variant, expected))
    }
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        StrictError::new(unknown_field_message(field, expected))
    }
    fn missing_field(field: &'static str) -> Self {
        StrictError {
            path: None,
            missing: Some(field),
            message: "missing (required)".into(),
        }
    }
    fn duplicate_field(field: &'static str) -> Self {
        StrictError::new(format!("duplicate key {field:?}"))
    }
}

fn one_of(got: &str, options: &[&str]) -> String {
    format!(
        "must be one of {}; got {:?}",
        options
            .iter()
            .map(|o| format!("{o:?}"))
            .collect::<Vec<_>>()
            .join(", "),
        truncate(got, 40)
    )
}

fn unknown_field_message(field: &str, expected: &[&str]) -> String {
    format!(
        "unknown field {:?}; the fields here are: {}",
        truncate(field, 40),
        expected.join(", ")
    )
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// The value in a message: numbers compact, strings quoted and cut, containers by kind.
fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => u.to_string(),
            (_, Some(i), _) => i.to_string(),
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{f:.1}"),
            (_, _, Some(f)) => compact_number(f),
            _ => n.to_string(),
        },
        Value::String(s) => format!("{:?}", truncate(s, 40)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// The range of values of an integer type, by serde's name for it (`usize`: 32 bits on every
/// target, see the module doc).
fn natural_range(ty: &str) -> (i128, i128) {
    match ty {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" | "usize" => (0, u32::MAX.into()),
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" | "isize" => (i32::MIN.into(), i32::MAX.into()),
        "i64" => (i64::MIN.into(), i64::MAX.into()),
        _ => (0, u64::MAX.into()),
    }
}

/// What every level of the strict deserializer shares: the path and the form's ranges.
struct Cx<'a> {
    path: Path,
    params: &'a [Param],
}

/// The strict deserializer over one value, at the path `cx.path`.
struct Strict<'a> {
    v: &'a Value,
    cx: &'a Cx<'a>,
}

impl<'a> Strict<'a> {
    fn err(&self, message: impl Into<String>) -> StrictError {
        StrictError::new(message).at(&self.cx.path.get())
    }
    /// The field table's entry for the value being read: the entry at its path (list indices
    /// written `[]`), else, for an item of a list, the entry of the list itself (a table that
    /// states one range for `sweep.processes` ranges each of its items).
    fn param(&self) -> Option<&Param> {
        let params = self.cx.params;
        params.iter().find(|p| self.cx.path.is(p.path)).or_else(|| {
            let path = self.cx.path.1.borrow();
            let list = path.strip_suffix("[]")?;
            params.iter().find(|p| p.path == list && p.kind == "int")
        })
    }
    /// "must be X, got Y".
    fn wrong(&self, what: &str) -> StrictError {
        self.err(format!("must be {what}, got {}", describe(self.v)))
    }
    /// The value as an integer of the type `ty`, else an error naming the field's range.
    fn whole(&self, ty: &str) -> Result<i128, StrictError> {
        let (lo, hi) = natural_range(ty);
        let n = match self.v {
            Value::Number(n) => n
                .as_u64()
                .map(i128::from)
                .or_else(|| n.as_i64().map(i128::from)),
            _ => None,
        };
        let range = self.param().and_then(|p| p.min.zip(p.max));
        let in_table_range = |n: i128| range.is_none_or(|(a, b)| a <= n as f64 && n as f64 <= b);
        match n {
            Some(n) if (lo..=hi).contains(&n) && in_table_range(n) => Ok(n),
            _ => {
                // whole numbers in full, as `check_range` writes them (`1000000`, not `1e6`)
                let (lo, hi) = match range {
                    Some((a, b)) => (
                        (a.ceil() as i128).to_string(),
                        (b.floor() as i128).to_string(),
                    ),
                    None => (lo.to_string(), hi.to_string()),
                };
                Err(self.wrong(&format!("a whole number from {lo} to {hi}")))
            }
        }
    }
    fn number_words(&self) -> String {
        match self.param().and_then(|p| p.min.zip(p.max)) {
            Some((a, b)) => format!(
                "a number from {} to {}",
                compact_number(a),
                compact_number(b)
            ),
            None => "a number".into(),
        }
    }
}

macro_rules! unsigned {
    ($($m:ident),*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
            let ty = (&visitor as &dyn Expected).to_string();
            let n = self.whole(&ty)?;
            visitor.visit_u64(n as u64)
        }
    )*};
}
macro_rules! signed {
    ($($m:ident),*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
            let ty = (&visitor as &dyn Expected).to_string();
            let ty = if ty.starts_with('i') { ty } else { "i64".to_string() };
            let n = self.whole(&ty)?;
            visitor.visit_i64(n as i64)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Strict<'_> {
    type Error = StrictError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        match self.v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (_, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => visitor.visit_str(s),
            Value::Array(_) => self.deserialize_seq(visitor),
            Value::Object(_) => self.deserialize_map(visitor),
        }
    }

    unsigned!(
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64
    );
    signed!(
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64
    );

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        let range = self.param().and_then(|p| p.min.zip(p.max));
        let above = self.param().is_some_and(|p| p.min_exclusive);
        match self.v {
            Value::Number(n) => {
                let v = n.as_f64().unwrap_or(f64::NAN);
                match range {
                    Some((a, b)) if !(v.is_finite() && a <= v && v <= b) => Err(self.err(format!(
                        "must be a number from {} to {}, got {}",
                        compact_number(a),
                        compact_number(b),
                        compact_number(v)
                    ))),
                    Some((a, _)) if above && v <= a => {
                        Err(self.err(format!("must be more than {}", compact_number(a))))
                    }
                    _ => visitor.visit_f64(v),
                }
            }
            _ => Err(self.wrong(&self.number_words())),
        }
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        self.deserialize_f64(visitor)
    }
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        match self.v {
            Value::Bool(b) => visitor.visit_bool(*b),
            _ => Err(self.wrong("true or false")),
        }
    }
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        match self.v {
            Value::String(s) => visitor.visit_str(s),
            _ => Err(self.wrong("a string (text in quotes)")),
        }
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        self.deserialize_str(visitor)
    }
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        self.deserialize_str(visitor)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        self.deserialize_str(visitor)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        self.deserialize_any(visitor)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        self.deserialize_any(visitor)
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        match self.v {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        match self.v {
            Value::Null => visitor.visit_unit(),
            _ => Err(self.wrong("null")),
        }
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, StrictError> {
        self.deserialize_unit(visitor)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, StrictError> {
        visitor.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        match self.v {
            Value::Array(items) => visitor.visit_seq(StrictSeq {
                items: items.iter(),
                index: 0,
                cx: self.cx,
            }),
            _ => Err(self.wrong("a list [ ... ]")),
        }
    }
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, StrictError> {
        self.deserialize_seq(visitor)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, StrictError> {
        self.deserialize_seq(visitor)
    }
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        match self.v {
            Value::Object(obj) => visitor.visit_map(StrictMap {
                entries: obj.iter(),
                value: None,
                cx: self.cx,
            }),
            _ => Err(self.wrong("an object { ... }")),
        }
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, StrictError> {
        let Value::Object(obj) = self.v else {
            return Err(self.wrong("an object { ... }"));
        };
        if let Some(k) = obj.keys().find(|k| !fields.contains(&k.as_str())) {
            let e = StrictError::new(unknown_field_message(k, fields));
            return Err(self.cx.path.with(Seg::Key(k), || e.at(&self.cx.path.get())));
        }
        self.deserialize_map(visitor)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, StrictError> {
        match self.v {
            Value::String(s) if variants.contains(&s.as_str()) => {
                visitor.visit_enum(s.as_str().into_deserializer())
            }
            Value::String(s) => Err(self.err(one_of(s, variants))),
            _ => Err(self.wrong(&format!(
                "one of {}",
                variants
                    .iter()
                    .map(|o| format!("{o:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, StrictError> {
        visitor.visit_unit()
    }
}

struct StrictSeq<'a> {
    items: std::slice::Iter<'a, Value>,
    index: usize,
    cx: &'a Cx<'a>,
}

impl<'de> SeqAccess<'de> for StrictSeq<'_> {
    type Error = StrictError;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, StrictError> {
        let Some(v) = self.items.next() else {
            return Ok(None);
        };
        let cx = self.cx;
        self.index += 1;
        cx.path.with(Seg::Index(self.index - 1), || {
            seed.deserialize(Strict { v, cx })
                .map(Some)
                .map_err(|e| e.at(&cx.path.get()))
        })
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct StrictMap<'a> {
    entries: serde_json::map::Iter<'a>,
    value: Option<(&'a String, &'a Value)>,
    cx: &'a Cx<'a>,
}

impl<'de> MapAccess<'de> for StrictMap<'_> {
    type Error = StrictError;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, StrictError> {
        let Some((k, v)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some((k, v));
        let cx = self.cx;
        let key: de::value::StrDeserializer<StrictError> = k.as_str().into_deserializer();
        cx.path.with(Seg::Key(k), || {
            seed.deserialize(key)
                .map(Some)
                .map_err(|e| e.at(&cx.path.get()))
        })
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<T::Value, StrictError> {
        let (k, v) = self
            .value
            .take()
            .ok_or_else(|| StrictError::new("a value without a key"))?;
        let cx = self.cx;
        cx.path.with(Seg::Key(k), || {
            seed.deserialize(Strict { v, cx })
                .map_err(|e| e.at(&cx.path.get()))
        })
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Job {
        tasks: u64,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        count: Option<u64>,
        jobs: Option<Vec<Job>>,
        sizes: Option<Vec<u32>>,
    }

    fn table() -> Vec<Param> {
        vec![
            Param::new("count", "Count", "int", Value::Null).range(1.0, 1073741824.0),
            Param::rule("jobs[].tasks", "int").range(1.0, 1073741824.0),
            Param::new("sizes", "Sizes", "int", Value::Null).range(2.0, 64.0),
        ]
    }

    fn refusal(text: &str) -> ScenarioError {
        from_value::<Doc>(&parse(text).unwrap(), &table()).unwrap_err()
    }

    /// A value of the wrong type is told the field's range from the table, never the range of
    /// the type that stores it (`0 to 18446744073709551615` for a `u64`).
    #[test]
    fn a_wrong_type_is_told_the_tables_range() {
        for bad in [r#""4""#, "true", "4.5", "-1", "[1]", "{}", "0", "1e12"] {
            for (text, path) in [
                (format!(r#"{{"count": {bad}}}"#), "$.count"),
                (
                    format!(r#"{{"jobs": [{{"tasks": 2}}, {{"tasks": {bad}}}]}}"#),
                    "$.jobs[1].tasks",
                ),
            ] {
                let e = refusal(&text);
                assert_eq!(e.path, path, "{e}");
                assert!(
                    e.message
                        .starts_with("must be a whole number from 1 to 1073741824, got "),
                    "{text}: {e}"
                );
            }
        }
        // an item of a list whose table entry is the list's
        let e = refusal(r#"{"sizes": [4, "x"]}"#);
        assert!(
            e.message.starts_with("must be a whole number from 2 to 64"),
            "{e}"
        );
        // without a table entry, the type's range
        let e = from_value::<Doc>(&parse(r#"{"count": "x"}"#).unwrap(), &[]).unwrap_err();
        assert!(e.message.contains("from 0 to 18446744073709551615"), "{e}");
    }
}
