//! A report's metrics read from the engine's typed report itself, not from its text: a serde
//! [`Serializer`] that builds a [`Value`] of only the parts a [`Want`] keeps (the metrics' paths
//! and the label fields of their lists) and never visits the rest (frames, schedules,
//! drawings). A study point needs a few numbers of a report; writing the whole report as text
//! and reading it back cost more than the run itself on small scenarios.
//!
//! Invariant: `capture(&doc, &Want::of(m))` equals `project(&serde_json::to_string(&doc)?, m)`
//! for every report document and metrics `m`, except that each number is the report's `f64`
//! exactly (the text's shortest form read back with `serde_json`'s default reader can land one
//! unit in the last place away; the tidy tables then print the digits the report prints).
//! Tested against [`super::metrics::project`] on every engine's sample scenarios.

use super::metrics::Want;
use serde::ser::{self, Serialize, Serializer};
use serde_json::{Map, Value};

type Error = serde_json::Error;

/// The parts of `value` that `want` keeps, as [`super::metrics::project`] would read them from
/// `value`'s JSON text.
///
/// # Errors
/// Those of `value`'s [`Serialize`] (a map key that is not a string, a number or a bool).
pub fn capture<T: Serialize + ?Sized>(value: &T, want: &Want) -> Result<Value, Error> {
    if want.whole {
        serde_json::to_value(value)
    } else {
        value.serialize(Capture(want))
    }
}

struct Capture<'a>(&'a Want);

/// A map key as JSON writes it: strings as they are, numbers and bools as their text.
fn key_text<T: Serialize + ?Sized>(key: &T) -> Result<String, Error> {
    match serde_json::to_value(key)? {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(ser::Error::custom("a map key must be a string")),
    }
}

macro_rules! plain {
    ($($name:ident($t:ty)),* $(,)?) => {$(
        fn $name(self, v: $t) -> Result<Value, Error> {
            serde_json::value::Serializer.$name(v)
        }
    )*};
}

impl<'a> Serializer for Capture<'a> {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = Items<'a>;
    type SerializeTuple = Items<'a>;
    type SerializeTupleStruct = Items<'a>;
    type SerializeTupleVariant = Variant<'a, Items<'a>>;
    type SerializeMap = Fields<'a>;
    type SerializeStruct = Fields<'a>;
    type SerializeStructVariant = Variant<'a, Fields<'a>>;

    plain!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
    );
    fn serialize_none(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Value, Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Value, Error> {
        Ok(Value::String(variant.to_string()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Value, Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Value, Error> {
        let mut out = Map::new();
        if let Some(w) = self.0.keys.get(variant) {
            out.insert(variant.to_string(), capture(v, w)?);
        }
        Ok(Value::Object(out))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Items<'a>, Error> {
        Ok(Items::new(self.0, len))
    }
    fn serialize_tuple(self, len: usize) -> Result<Items<'a>, Error> {
        Ok(Items::new(self.0, Some(len)))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Items<'a>, Error> {
        Ok(Items::new(self.0, Some(len)))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Variant<'a, Items<'a>>, Error> {
        Ok(Variant::new(self.0, variant, |w| Items::new(w, Some(len))))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Fields<'a>, Error> {
        Ok(Fields::new(self.0))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'a>, Error> {
        Ok(Fields::new(self.0))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Variant<'a, Fields<'a>>, Error> {
        Ok(Variant::new(self.0, variant, Fields::new))
    }
}

/// A list: the kept items captured, the others `null` (positions hold, as in the text's
/// projection).
struct Items<'a> {
    want: &'a Want,
    out: Vec<Value>,
}

impl<'a> Items<'a> {
    fn new(want: &'a Want, len: Option<usize>) -> Self {
        Items {
            want,
            out: Vec::with_capacity(len.unwrap_or(0).min(4096)),
        }
    }
    fn push<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let i = self.out.len();
        let keep = if self.want.whole {
            Some(self.want)
        } else {
            self.want
                .items
                .as_deref()
                .filter(|_| self.want.all_items || self.want.indices.contains(&i))
        };
        self.out.push(match keep {
            Some(w) => capture(v, w)?,
            None => Value::Null,
        });
        Ok(())
    }
}

macro_rules! items_impl {
    ($($tr:ident :: $m:ident),*) => {$(
        impl ser::$tr for Items<'_> {
            type Ok = Value;
            type Error = Error;
            fn $m<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
                self.push(v)
            }
            fn end(self) -> Result<Value, Error> {
                Ok(Value::Array(self.out))
            }
        }
    )*};
}
items_impl!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

/// An object: the kept fields captured, the others left out (as in the text's projection).
struct Fields<'a> {
    want: &'a Want,
    out: Map<String, Value>,
    key: Option<String>,
}

impl<'a> Fields<'a> {
    fn new(want: &'a Want) -> Self {
        Fields {
            want,
            out: Map::new(),
            key: None,
        }
    }
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) -> Result<(), Error> {
        if self.want.whole {
            self.out.insert(key.to_string(), serde_json::to_value(v)?);
        } else if let Some(w) = self.want.keys.get(key) {
            self.out.insert(key.to_string(), capture(v, w)?);
        }
        Ok(())
    }
}

impl ser::SerializeMap for Fields<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(key_text(key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ser::Error::custom("a map value without its key"))?;
        self.field(&key, v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Object(self.out))
    }
}

impl ser::SerializeStruct for Fields<'_> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        self.field(key, v)
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Object(self.out))
    }
}

/// An enum variant with content, `{"Variant": content}`: the content captured when the
/// variant's name is kept, else skipped whole.
struct Variant<'a, C> {
    name: &'static str,
    inner: Option<C>,
    _want: std::marker::PhantomData<&'a Want>,
}

impl<'a, C> Variant<'a, C> {
    fn new(want: &'a Want, name: &'static str, inner: impl FnOnce(&'a Want) -> C) -> Self {
        Variant {
            name,
            inner: want.keys.get(name).map(inner),
            _want: std::marker::PhantomData,
        }
    }
    fn wrap(name: &'static str, content: Option<Value>) -> Value {
        let mut out = Map::new();
        if let Some(c) = content {
            out.insert(name.to_string(), c);
        }
        Value::Object(out)
    }
}

impl ser::SerializeTupleVariant for Variant<'_, Items<'_>> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        match &mut self.inner {
            Some(items) => items.push(v),
            None => Ok(()),
        }
    }
    fn end(self) -> Result<Value, Error> {
        let content = self.inner.map(|i| Value::Array(i.out));
        Ok(Self::wrap(self.name, content))
    }
}

impl ser::SerializeStructVariant for Variant<'_, Fields<'_>> {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Error> {
        match &mut self.inner {
            Some(fields) => fields.field(key, v),
            None => Ok(()),
        }
    }
    fn end(self) -> Result<Value, Error> {
        let content = self.inner.map(|f| Value::Object(f.out));
        Ok(Self::wrap(self.name, content))
    }
}
