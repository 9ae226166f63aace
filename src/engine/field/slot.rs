//! A field of an engine's typed form, borrowed to be set ([`Slot`]): what
//! it holds ([`FieldType`]) is its Rust type's ([`Held`]), and so is how a
//! written value, a number, a file or text is put in it.

use super::{FieldError, FieldType, FieldValue};
use crate::engine::config::SearchKind;
use crate::engine::external::Protocol;
use crate::eval::EvalSpec;
use crate::game::GameKind;
use crate::search::limits::TimeUse;
use crate::search::{Limit, OrderBy};
use crate::util::ron::parse_ron_field;
use serde::{de::DeserializeOwned, Serialize};
use std::path::PathBuf;

/// A field of the typed form, borrowed to be set.
pub(super) struct Slot<'a> {
    /// What it holds.
    pub(super) ty: FieldType,
    /// Its value.
    pub(super) at: &'a mut dyn Place,
}

impl<'a> Slot<'a> {
    /// A field of type `T`, given values as `T` takes them.
    pub(super) fn of<T: Held>(at: &'a mut T) -> Slot<'a> {
        Slot { ty: T::TYPE, at }
    }

    /// A field of type `T` whose values are written in RON, whatever `T`.
    pub(super) fn ron<T: Held>(at: &'a mut T) -> Slot<'a> {
        Slot {
            ty: FieldType::Ron,
            at,
        }
    }

    /// Sets it to `value`: the field at `path` of a file whose struct is
    /// written `top(...)`.
    pub(super) fn set(
        self,
        top: &'static str,
        path: &str,
        value: FieldValue<'_>,
    ) -> Result<(), FieldError> {
        let (text, base) = match value {
            FieldValue::Number(v) => {
                let set = self.ty.is_number().then(|| self.at.number(v)).flatten();
                return set.unwrap_or_else(|| Err(FieldError::NotANumber(path.into())));
            }
            FieldValue::Written { text, base } => (text, base),
        };
        let leaf = path.rsplit('.').next().unwrap_or(path);
        if text == "None" {
            return self.at.read(top, leaf, text);
        }
        let done = match self.ty {
            FieldType::Text => self.at.text(text),
            FieldType::Path => {
                let p = base.join(text);
                self.at.path(std::path::absolute(&p).unwrap_or(p))
            }
            FieldType::Whole { .. } | FieldType::Real | FieldType::Bool | FieldType::Ron => false,
        };
        if done {
            return Ok(());
        }
        if self.at.optional() && !text.starts_with("Some(") {
            return self.at.read(top, leaf, &format!("Some({text})"));
        }
        self.at.read(top, leaf, text)
    }
}

/// A field's value, whatever its type (see [`Held`]).
pub(super) trait Place {
    /// Whether it is an option (`None` or `Some(...)`).
    fn optional(&self) -> bool;
    /// Sets it to `ron`, read as the field `leaf` of `top(...)`.
    fn read(&mut self, top: &'static str, leaf: &str, ron: &str) -> Result<(), FieldError>;
    /// Sets it to the number `v`; `None` when it holds no number.
    fn number(&mut self, v: f64) -> Option<Result<(), FieldError>>;
    /// Sets it to the file `p`; false when it holds none.
    fn path(&mut self, p: PathBuf) -> bool;
    /// Sets it to the text `t`; false when it holds none.
    fn text(&mut self, t: &str) -> bool;
    /// Its value in RON.
    fn shown(&self) -> String;
}

/// A Rust type a field holds: its [`FieldType`], and how a number, a file
/// or text is put in it besides RON.
pub(super) trait Held: DeserializeOwned + Serialize {
    /// What it holds.
    const TYPE: FieldType;
    /// Whether it is an option.
    const OPTIONAL: bool = false;
    /// A number as this type (`None`: it holds none).
    fn from_number(_: f64) -> Option<Result<Self, FieldError>> {
        None
    }
    /// A file as this type (`None`: it holds none).
    fn from_path(_: PathBuf) -> Option<Self> {
        None
    }
    /// Text as this type (`None`: it holds none).
    fn from_text(_: &str) -> Option<Self> {
        None
    }
}

impl<T: Held> Place for T {
    fn optional(&self) -> bool {
        T::OPTIONAL
    }

    fn read(&mut self, top: &'static str, leaf: &str, ron: &str) -> Result<(), FieldError> {
        *self = parse_ron_field(ron, top, leaf).map_err(FieldError::Unreadable)?;
        Ok(())
    }

    fn number(&mut self, v: f64) -> Option<Result<(), FieldError>> {
        Some(T::from_number(v)?.map(|x| *self = x))
    }

    fn path(&mut self, p: PathBuf) -> bool {
        T::from_path(p).map(|x| *self = x).is_some()
    }

    fn text(&mut self, t: &str) -> bool {
        T::from_text(t).map(|x| *self = x).is_some()
    }

    fn shown(&self) -> String {
        ron::to_string(self).unwrap_or_default()
    }
}

/// `v` as a whole number of `T` (whose range is `T::TYPE`'s): rounded,
/// halves away from zero, as a tune plays it.
fn rounded<T: Held + TryFrom<i64>>(v: f64) -> Result<T, FieldError> {
    let (lo, hi) = match T::TYPE {
        FieldType::Whole { min, max } => (min, max),
        FieldType::Real | FieldType::Bool | FieldType::Text | FieldType::Path | FieldType::Ron => {
            (0, 0)
        }
    };
    T::try_from(v.round() as i64).map_err(|_| FieldError::OutOfRange { lo, hi })
}

/// Whole-number types: a number is put in rounded.
macro_rules! whole {
    ($($t:ty),*) => {$(
        impl Held for $t {
            const TYPE: FieldType = FieldType::Whole {
                min: <$t>::MIN as i128,
                max: <$t>::MAX as i128,
            };
            fn from_number(v: f64) -> Option<Result<Self, FieldError>> {
                Some(rounded(v))
            }
        }
    )*};
}

whole!(i32, u32, u64, usize);

/// Types whose values are written in RON only.
macro_rules! ron_only {
    ($($t:ty),*) => {$(
        impl Held for $t {
            const TYPE: FieldType = FieldType::Ron;
        }
    )*};
}

ron_only!(
    GameKind,
    SearchKind,
    Limit,
    Vec<OrderBy>,
    EvalSpec,
    TimeUse,
    Protocol,
    Vec<String>
);

impl Held for Option<Limit> {
    const TYPE: FieldType = FieldType::Ron;
    const OPTIONAL: bool = true;
}

impl Held for Option<i32> {
    const TYPE: FieldType = <i32 as Held>::TYPE;
    const OPTIONAL: bool = true;
    fn from_number(v: f64) -> Option<Result<Self, FieldError>> {
        Some(rounded::<i32>(v).map(Some))
    }
}

impl Held for f64 {
    const TYPE: FieldType = FieldType::Real;
    fn from_number(v: f64) -> Option<Result<Self, FieldError>> {
        Some(Ok(v))
    }
}

impl Held for Option<f64> {
    const TYPE: FieldType = FieldType::Real;
    const OPTIONAL: bool = true;
    fn from_number(v: f64) -> Option<Result<Self, FieldError>> {
        Some(Ok(Some(v)))
    }
}

impl Held for bool {
    const TYPE: FieldType = FieldType::Bool;
}

impl Held for String {
    const TYPE: FieldType = FieldType::Text;
    fn from_text(t: &str) -> Option<Self> {
        Some(t.to_string())
    }
}

impl Held for PathBuf {
    const TYPE: FieldType = FieldType::Path;
    fn from_path(p: PathBuf) -> Option<Self> {
        Some(p)
    }
}

impl Held for Option<PathBuf> {
    const TYPE: FieldType = FieldType::Path;
    const OPTIONAL: bool = true;
    fn from_path(p: PathBuf) -> Option<Self> {
        Some(Some(p))
    }
}
