//! The on-disk JSON forms of arena values whose file shape is not their Rust shape: numbers
//! that may be infinite, budgets and SPRT bounds (serde `with` modules and a wrapper).

use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Budget, SprtConfig};

/// A float as the arena's files write it: finite as a number (whole ones without a fraction), NaN (a mean of nothing) as
/// `null`, infinities (an Elo of a clean sweep) as the strings `"+inf"` / `"-inf"`, since JSON
/// has no infinity. Reads back what it writes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f64);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let x = self.0;
        if x.is_finite() && x.fract() == 0.0 && x.abs() < 9e15 {
            // A whole number is written without a fraction (`1`, not `1.0`; -0 as `0`), as the
            // hand-written writer did, so that reports keep their text.
            s.serialize_i64(x as i64)
        } else if x.is_finite() {
            s.serialize_f64(x)
        } else if x.is_nan() {
            s.serialize_none()
        } else {
            s.serialize_str(if x > 0.0 { "+inf" } else { "-inf" })
        }
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Num, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(f64),
            Text(String),
        }
        match Option::<Raw>::deserialize(d)? {
            None => Ok(Num(f64::NAN)),
            Some(Raw::Number(x)) => Ok(Num(x)),
            Some(Raw::Text(t)) => match t.as_str() {
                "+inf" | "inf" => Ok(Num(f64::INFINITY)),
                "-inf" => Ok(Num(f64::NEG_INFINITY)),
                _ => Err(serde::de::Error::custom(format!("'{t}' is not a number"))),
            },
        }
    }
}

/// A budget as `{"iterations":N}` or `{"time_ms":T}`.
pub mod budget {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Form {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        iterations: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<Num>,
    }

    pub fn serialize<S: Serializer>(budget: &Budget, s: S) -> Result<S::Ok, S::Error> {
        match *budget {
            Budget::Iterations(n) => Form {
                iterations: Some(n),
                time_ms: None,
            },
            Budget::Time(d) => Form {
                iterations: None,
                time_ms: Some(Num(d.as_secs_f64() * 1e3)),
            },
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Budget, D::Error> {
        match Form::deserialize(d)? {
            Form {
                iterations: Some(n),
                ..
            } => Ok(Budget::Iterations(n)),
            // Written as milliseconds in a float; the command line takes whole milliseconds.
            Form {
                time_ms: Some(Num(ms)),
                ..
            } if ms >= 0.0 && ms.is_finite() => Ok(Budget::Time(Duration::from_nanos(
                (ms * 1e6).round() as u64,
            ))),
            _ => Err(serde::de::Error::custom(
                "\"budget\" is neither {\"iterations\":N} nor {\"time_ms\":T}",
            )),
        }
    }
}

/// SPRT bounds as `{"elo0":..,"elo1":..,"alpha":..,"beta":..}` or `null`; bounds that
/// [`SprtConfig::new`] refuses are an error.
pub mod sprt {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Form {
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
    }

    pub fn serialize<S: Serializer>(sprt: &Option<SprtConfig>, s: S) -> Result<S::Ok, S::Error> {
        sprt.map(|c| Form {
            elo0: c.elo0,
            elo1: c.elo1,
            alpha: c.alpha,
            beta: c.beta,
        })
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<SprtConfig>, D::Error> {
        Option::<Form>::deserialize(d)?
            .map(|f| SprtConfig::new(f.elo0, f.elo1, f.alpha, f.beta))
            .transpose()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_write_infinities_as_strings_and_read_them_back() {
        let text = serde_json::to_string(&[
            Num(0.5),
            Num(-0.0),
            Num(f64::INFINITY),
            Num(f64::NEG_INFINITY),
            Num(f64::NAN),
        ])
        .unwrap();
        assert_eq!(text, "[0.5,0,\"+inf\",\"-inf\",null]");
        let back: Vec<Num> = serde_json::from_str(&text).unwrap();
        assert_eq!(
            back[..4],
            [
                Num(0.5),
                Num(0.0),
                Num(f64::INFINITY),
                Num(f64::NEG_INFINITY)
            ]
        );
        assert!(back[4].0.is_nan());
        assert!(serde_json::from_str::<Num>("\"many\"").is_err());
    }

    #[test]
    fn budgets_and_bounds_round_trip() {
        #[derive(Serialize, Deserialize)]
        struct Both {
            #[serde(with = "budget")]
            budget: Budget,
            #[serde(with = "sprt")]
            sprt: Option<SprtConfig>,
        }
        for (budget, text) in [
            (
                Budget::Iterations(30),
                "{\"budget\":{\"iterations\":30},\"sprt\":null}",
            ),
            (
                Budget::Time(Duration::from_millis(20)),
                "{\"budget\":{\"time_ms\":20},\"sprt\":null}",
            ),
        ] {
            let json = serde_json::to_string(&Both { budget, sprt: None }).unwrap();
            assert_eq!(json, text);
            assert_eq!(serde_json::from_str::<Both>(&json).unwrap().budget, budget);
        }
        let bounds = SprtConfig::new(0.0, 5.0, 0.05, 0.05).ok();
        let json = serde_json::to_string(&Both {
            budget: Budget::Iterations(1),
            sprt: bounds,
        })
        .unwrap();
        assert_eq!(serde_json::from_str::<Both>(&json).unwrap().sprt, bounds);
        let bad = "{\"budget\":{\"iterations\":1},\"sprt\":{\"elo0\":5,\"elo1\":0,\"alpha\":0.05,\"beta\":0.05}}";
        assert!(serde_json::from_str::<Both>(bad).is_err());
        assert!(serde_json::from_str::<Both>("{\"budget\":{},\"sprt\":null}").is_err());
    }
}
