//! `search:` of an engine file: the random mover or a search variant,
//! spelled flat (`search: Random`, `search: Pvs`, `search: AlphaBeta(fail:
//! Soft)`), with the serde forms the config hash has always used.

use crate::search::Variant;
use serde::{Deserialize, Serialize};

/// How an engine picks its move: the random mover, or one of the search
/// variants. Engine files spell it flat (`search: Random`, `search: Pvs`,
/// `search: AlphaBeta(fail: Soft)`): `Random` here, every other name is
/// [`Variant`]'s own serde form, so the variants are listed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// A uniformly random legal move (seeded).
    Random,
    /// A search.
    Search(Variant),
}

impl Serialize for SearchKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            SearchKind::Random => s.serialize_unit_variant("SearchKind", 0, "Random"),
            SearchKind::Search(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for SearchKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_enum("SearchKind", SEARCH_NAMES, visit::KindVisitor)
    }
}

/// Every name `search:` accepts (for error messages).
const SEARCH_NAMES: &[&str] = &["Random", "Minimax", "Negamax", "AlphaBeta", "Pvs", "MtdF"];

/// Deserializing [`SearchKind`]: read the variant's name; `Random` is ours,
/// any other name is handed back, with the rest of the input, to
/// [`Variant`]'s derived deserializer.
mod visit {
    use super::{SearchKind, Variant, SEARCH_NAMES};
    use serde::de::{self, Deserialize, EnumAccess, IntoDeserializer, VariantAccess, Visitor};
    use std::fmt;

    pub(super) struct KindVisitor;

    impl<'de> Visitor<'de> for KindVisitor {
        type Value = SearchKind;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "one of {}", SEARCH_NAMES.join(", "))
        }

        fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<SearchKind, A::Error> {
            let (Name(name), rest): (Name, A::Variant) = data.variant()?;
            if !SEARCH_NAMES.contains(&name.as_str()) {
                return Err(de::Error::unknown_variant(&name, SEARCH_NAMES));
            }
            if name == "Random" {
                rest.unit_variant()?;
                return Ok(SearchKind::Random);
            }
            Variant::deserialize(Replay { name, rest }).map(SearchKind::Search)
        }
    }

    /// A variant's name, read as an identifier (as RON spells it).
    struct Name(String);

    impl<'de> Deserialize<'de> for Name {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
            struct NameVisitor;
            impl Visitor<'_> for NameVisitor {
                type Value = Name;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a search name")
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<Name, E> {
                    Ok(Name(v.to_string()))
                }
            }
            d.deserialize_identifier(NameVisitor)
        }
    }

    /// A deserializer that replays an enum whose name was already read.
    struct Replay<A> {
        name: String,
        rest: A,
    }

    impl<'de, A: VariantAccess<'de>> de::Deserializer<'de> for Replay<A> {
        type Error = A::Error;

        fn deserialize_any<W: Visitor<'de>>(self, visitor: W) -> Result<W::Value, A::Error> {
            visitor.visit_enum(self)
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map struct enum identifier ignored_any
        }
    }

    impl<'de, A: VariantAccess<'de>> EnumAccess<'de> for Replay<A> {
        type Error = A::Error;
        type Variant = A;

        fn variant_seed<S: de::DeserializeSeed<'de>>(
            self,
            seed: S,
        ) -> Result<(S::Value, A), A::Error> {
            let name: de::value::StringDeserializer<A::Error> = self.name.into_deserializer();
            Ok((seed.deserialize(name)?, self.rest))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::RawEngine;
    use std::path::Path;

    fn search_of(text: &str) -> std::result::Result<SearchKind, String> {
        let text = format!("Engine(name: \"x\", search: {text})");
        crate::util::parse_ron::<RawEngine>(&text, Path::new("x.ron"))
            .map(|r| r.search)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn search_is_random_or_a_variant_spelled_flat() {
        assert_eq!(search_of("Random"), Ok(SearchKind::Random));
        for v in Variant::ALL {
            let text = ron::to_string(&v).unwrap();
            assert_eq!(search_of(&text), Ok(SearchKind::Search(v)), "{text}");
            // The JSON form (config hashes) is the variant's own.
            assert_eq!(
                serde_json::to_string(&SearchKind::Search(v)).unwrap(),
                serde_json::to_string(&v).unwrap()
            );
        }
        assert_eq!(
            serde_json::to_string(&SearchKind::Random).unwrap(),
            "\"Random\""
        );
        let e = search_of("Alphabeta").unwrap_err();
        assert!(
            e.contains("Alphabeta") && e.contains("Random") && e.contains("MtdF"),
            "{e}"
        );
        let e = search_of("AlphaBeta(fail: Medium)").unwrap_err();
        assert!(e.contains("Medium"), "{e}");
    }
}
