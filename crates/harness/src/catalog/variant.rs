//! [`CatalogVariant`]: an experiment's kernels as the catalog names them, so that a command line
//! parses `--variants` and picks the catalog's default variants from the type alone.

/// The kernels of one experiment, each named as in its catalog entry
/// (`experiments/<EXPERIMENT>.toml`). Implemented with [`crate::catalog_variant!`].
pub trait CatalogVariant: Copy + Send + Sync + 'static {
    /// The experiment's id in the catalog.
    const EXPERIMENT: &'static str;
    /// Every kernel of this language.
    const ALL: &'static [Self];
    /// The kernel's name in the catalog.
    fn catalog_name(self) -> &'static str;
}

/// Implements [`CatalogVariant`] for an enum with an `ALL` array and a `name(self)` method:
/// `catalog_variant!(Variant, "dispatch");`.
///
/// ```
/// #[derive(Clone, Copy)]
/// enum Variant { Static, Dyn }
/// impl Variant {
///     const ALL: [Variant; 2] = [Variant::Static, Variant::Dyn];
///     fn name(self) -> &'static str { match self { Variant::Static => "static", Variant::Dyn => "dyn" } }
/// }
/// sympathy_harness::catalog_variant!(Variant, "dispatch");
/// use sympathy_harness::catalog::CatalogVariant;
/// assert_eq!(<Variant as CatalogVariant>::ALL.len(), 2);
/// assert_eq!(Variant::Dyn.catalog_name(), "dyn");
/// ```
#[macro_export]
macro_rules! catalog_variant {
    ($variant:ty, $experiment:expr) => {
        impl $crate::catalog::CatalogVariant for $variant {
            const EXPERIMENT: &'static str = $experiment;
            const ALL: &'static [Self] = &<$variant>::ALL;
            fn catalog_name(self) -> &'static str {
                <$variant>::name(self)
            }
        }
    };
}
