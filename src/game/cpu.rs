//! The processor's instruction sets, chosen at run time: one x86-64 binary
//! runs on any x86-64 machine, and where AVX2, BMI1/2, POPCNT and LZCNT are
//! there (every x86-64 since 2013-2015) the hot code runs compiled for them.
//!
//! The hot recursive code (perft, the search's nodes, the exact solver) is
//! generic over a [`Cpu`] level and takes its token as an argument (a
//! zero-sized value, free to pass). Each such function wraps its body in
//! [`Cpu::run`] (`cpu.run(#[inline(always)] move || { .. })`): with [`Avx2`] the body is compiled inside a
//! `#[target_feature]` function, so everything inlined into it (move
//! generation, flips, counting, the evaluation) uses those instructions,
//! and a recursive call lands straight in the next such body; with
//! [`Baseline`] the body is plain x86-64 (or any other target's) code. The
//! entry points ([`detect`] and a `match`) choose once per call.
//!
//! The hottest recursions (perft, the solver's nodes) instead have an AVX2
//! twin each, a `#[target_feature]` function that the generic one calls
//! when [`Cpu::avx2`] gives a token (known at compile time): the recursion
//! calls it straight, its arguments in registers, where through `run` they
//! went behind a pointer to the closure's captures at every node.
//!
//! An [`Avx2`] token exists only after the processor was seen to have the
//! features, so its safe methods cannot run the instructions where they
//! are missing. `ARENA_SIMD=off` in the environment makes [`detect`] choose
//! the baseline code everywhere (to compare the two paths, or to rule the
//! vector code out when hunting a bug).

use std::sync::OnceLock;

/// A code path: a level of instruction sets the hot code is compiled for.
///
/// Implemented by [`Baseline`] and [`Avx2`] only.
pub trait Cpu: Copy + Send + Sync + 'static + private::Sealed {
    /// The path's name as `arena bench` prints it.
    const NAME: &'static str;

    /// Calls `f` in code compiled for this level: what is inlined into
    /// `f` uses the level's instructions. Give the closure the whole body
    /// of a hot function and mark it `#[inline(always)]`: without that
    /// LLVM may keep a closure (a recursive one above all) as a function
    /// of its own, compiled for the baseline.
    fn run<R>(self, f: impl FnOnce() -> R) -> R;

    /// This token as an [`Avx2`], when it is one (known at compile time):
    /// a hot recursive function branches on it to call its AVX2 twin, a
    /// function of its own with the features of [`Cpu::run`]'s (see the
    /// module's text).
    fn avx2(self) -> Option<Avx2>;
}

/// Plain code for the target the binary was built for (x86-64: SSE2 only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Baseline;

/// x86-64 with AVX2, BMI1, BMI2, POPCNT and LZCNT, seen at run time.
/// Obtained only from [`Avx2::detect`] (and [`detect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2 {
    _seen: (),
}

mod private {
    pub trait Sealed {}
    impl Sealed for super::Baseline {}
    impl Sealed for super::Avx2 {}
}

impl Cpu for Baseline {
    const NAME: &'static str = "baseline";

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        f()
    }

    #[inline(always)]
    fn avx2(self) -> Option<Avx2> {
        None
    }
}

impl Avx2 {
    /// The token, when this processor has every feature of the level.
    pub fn detect() -> Option<Avx2> {
        #[cfg(target_arch = "x86_64")]
        {
            let all = is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("lzcnt");
            all.then_some(Avx2 { _seen: () })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl Cpu for Avx2 {
    const NAME: &'static str = "avx2+bmi2";

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
        #[inline]
        fn compiled_for_avx2<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        // SAFETY: an `Avx2` token exists only when `detect` saw every
        // feature `compiled_for_avx2` is compiled for.
        unsafe { compiled_for_avx2(f) }
    }

    #[inline(always)]
    fn avx2(self) -> Option<Avx2> {
        Some(self)
    }
}

/// Without x86-64 no `Avx2` token can exist (`detect` gives `None`); the
/// methods are the baseline's so the generic code still compiles.
#[cfg(not(target_arch = "x86_64"))]
impl Cpu for Avx2 {
    const NAME: &'static str = "avx2+bmi2";

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        f()
    }

    #[inline(always)]
    fn avx2(self) -> Option<Avx2> {
        Some(self)
    }
}

/// The code path this process uses: [`Avx2`] when the processor has it and
/// `ARENA_SIMD` is not `off`, else [`Baseline`]. Decided once.
pub fn detect() -> Option<Avx2> {
    static CHOSEN: OnceLock<Option<Avx2>> = OnceLock::new();
    *CHOSEN.get_or_init(|| {
        if simd_switched_off(std::env::var_os("ARENA_SIMD").as_deref()) {
            None
        } else {
            Avx2::detect()
        }
    })
}

/// The name of the path [`detect`] chose (`avx2+bmi2` or `baseline`).
pub fn chosen_name() -> &'static str {
    match detect() {
        Some(_) => Avx2::NAME,
        None => Baseline::NAME,
    }
}

/// True when `ARENA_SIMD`'s value asks for the baseline code.
fn simd_switched_off(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|v| v == "off")
}

/// The value of `ARENA_SIMD`, when set to something other than `off` or
/// `auto`: for the command line to refuse.
pub fn bad_switch() -> Option<String> {
    let v = std::env::var_os("ARENA_SIMD")?;
    (v != "off" && v != "auto").then(|| v.to_string_lossy().into_owned())
}

/// Calls `on.call(cpu)` with the token of the chosen path: the one place a
/// hot entry point branches on the processor.
#[inline]
pub fn dispatch<T: OnCpu>(on: T) -> T::Output {
    match detect() {
        Some(avx2) => on.call(avx2),
        None => on.call(Baseline),
    }
}

/// Work generic over the code path, for [`dispatch`] (a closure cannot be
/// generic).
pub trait OnCpu {
    /// What the work returns.
    type Output;
    /// Does the work on `cpu`'s path.
    fn call<C: Cpu>(self, cpu: C) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_off_switches_the_vector_code_off() {
        assert!(simd_switched_off(Some("off".as_ref())));
        assert!(!simd_switched_off(Some("auto".as_ref())));
        assert!(!simd_switched_off(None));
    }

    #[test]
    fn both_paths_run_the_closure() {
        assert_eq!(Baseline.run(|| 41 + 1), 42);
        assert!(Baseline.avx2().is_none());
        if let Some(avx2) = Avx2::detect() {
            assert_eq!(avx2.run(|| 41 + 1), 42);
            assert_eq!(avx2.avx2(), Some(avx2));
        }
    }
}
