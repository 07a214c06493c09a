internal import CGSL

/// What a centred or trailing window does where it reaches past the first or last sample.
///
/// Not every method supports every rule; each smoothing configuration lists its own
/// (`supportedEnds`) and traps on a rule it does not support.
///
/// | rule | meaning | GSL |
/// |---|---|---|
/// | ``padZero`` | samples beyond the ends count as 0 | `GSL_FILTER_END_PADZERO`, `GSL_MOVSTAT_END_PADZERO` |
/// | ``padValue`` | samples beyond the ends repeat the first / last sample | `GSL_FILTER_END_PADVALUE`, `GSL_MOVSTAT_END_PADVALUE` |
/// | ``truncate`` | windows shrink to the samples that exist | `GSL_FILTER_END_TRUNCATE`, `GSL_MOVSTAT_END_TRUNCATE` |
/// | ``polynomialFit`` | Savitzky–Golay only: the first and last `H` outputs evaluate the polynomial fitted to the first / last full window | (TouchSignal) |
///
/// For force traces, which start and end near zero, ``padValue`` is the usual choice: it adds no
/// artificial dip or step at the ends.
public enum EndHandling: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// Samples beyond the ends count as zero force.
  case padZero = "pad-zero"
  /// Samples beyond the ends repeat the first (before) and last (after) sample.
  case padValue = "pad-value"
  /// Windows shrink at the ends to the samples that exist.
  case truncate
  /// The polynomial of a full window fitted at each end gives the end outputs (Savitzky–Golay).
  case polynomialFit = "polynomial-fit"

  /// The command-line spelling: `pad-zero`, `pad-value`, `truncate`, `polynomial-fit`.
  public var description: String { rawValue }

  /// The GSL filter end type.
  var filterEnd: gsl_filter_end_t {
    switch self {
    case .padZero: GSL_FILTER_END_PADZERO
    case .padValue: GSL_FILTER_END_PADVALUE
    case .truncate: GSL_FILTER_END_TRUNCATE
    case .polynomialFit: preconditionFailure("polynomial-fit ends are not a GSL filter end type")
    }
  }

  /// The GSL moving-statistics end type.
  var movstatEnd: gsl_movstat_end_t {
    switch self {
    case .padZero: GSL_MOVSTAT_END_PADZERO
    case .padValue: GSL_MOVSTAT_END_PADVALUE
    case .truncate: GSL_MOVSTAT_END_TRUNCATE
    case .polynomialFit: preconditionFailure("polynomial-fit ends are not a GSL movstat end type")
    }
  }
}

extension EndHandling {
  /// Traps unless `self` is one of `supported` (a programmer error): `method` names the method in
  /// the message.
  func require(in supported: [EndHandling], by method: String) {
    precondition(supported.contains(self), "\(method) does not support \(self) ends")
  }
}
