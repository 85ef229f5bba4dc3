//! Tunable evaluation weights and search constants, declared once (STUB: to be replaced).

/// One tunable: its option name, default and range.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

/// Every tunable, in option order.
pub fn specs() -> &'static [ParamSpec] {
    &[ParamSpec {
        name: "PathWeight",
        default: 100,
        min: 0,
        max: 1000,
    }]
}

/// Current values of the tunables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    pub path_weight: i32,
}

impl Default for Params {
    fn default() -> Params {
        Params { path_weight: 100 }
    }
}

impl Params {
    /// The value of a tunable by (case-insensitive) name.
    pub fn get(&self, name: &str) -> Option<i32> {
        name.eq_ignore_ascii_case("PathWeight")
            .then_some(self.path_weight)
    }

    /// Sets a tunable; an unknown name or a value out of range is an error and changes nothing.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let spec = specs()
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("no tunable named '{name}'"))?;
        if value < spec.min || value > spec.max {
            return Err(format!(
                "{} must be in {}..={}",
                spec.name, spec.min, spec.max
            ));
        }
        self.path_weight = value;
        Ok(())
    }
}
