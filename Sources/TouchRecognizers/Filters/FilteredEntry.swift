/// The catalog entries of recognizers behind a causal filter: `FILTER/NAME`.
enum FilteredEntry {
  /// What separates the filter from the recognizer: `ema/deep-press`.
  static let separator: Character = "/"

  /// The entry of `FILTER/NAME`, or `nil` when `name` has no filter part (no `/` before any `:`).
  ///
  /// - Throws: ``ParameterError`` for a filter that is unknown or not causal, or an unknown
  ///   recognizer.
  static func entry(_ name: String, catalog: RecognizerCatalog) throws(ParameterError) -> RecognizerCatalog.Entry? {
    guard let slash = name.firstIndex(of: separator),
      name.firstIndex(of: ":").map({ slash < $0 }) ?? true
    else { return nil }
    let filterName = String(name[..<slash])
    let baseName = String(name[name.index(after: slash)...])
    let causal = CausalFilterKind.allCases.map(\.rawValue).joined(separator: ", ")
    guard let kind = CausalFilterKind(rawValue: filterName) else {
      let reason =
        CausalFilterKind.nonCausal.contains(filterName)
        ? "'\(filterName)' is a zero-phase (non-causal) smoother: each of its outputs reads later samples, "
          + "which a live recognizer has not seen yet; use it with `touchtrace smooth`, and in front of a "
          + "recognizer a causal filter: \(causal)"
        : "'\(filterName)' is not a filter; causal filters: \(causal)"
      throw ParameterError(variant: name, parameter: nil, .invalid(reason))
    }
    let base = try catalog.requireEntry(baseName)
    let descriptor = describe(kind, base.descriptor, name: name)
    // `values` are resolved against `descriptor`: every parameter is there and in range. The
    // filter's (declared names, prefixed) build the filter; the rest go to the recognizer.
    let own = Set(kind.parameters.map { kind.prefixed($0.name) })
    let make: @Sendable (ParameterValues) throws(ParameterError) -> AnyForceRecognizer = {
      values throws(ParameterError) in
      var prefixed: [ParameterValues.Entry] = []
      var rest: [String: ParameterValue] = [:]
      for entry in values.entries {
        if own.contains(entry.name) { prefixed.append(entry) } else { rest[entry.name] = entry.value }
      }
      let unprefixed = prefixed.map {
        ParameterValues.Entry(name: String($0.name.dropFirst(kind.prefixed("").count)), value: $0.value)
      }
      let filter = try kind.make(ParameterValues(unprefixed), recognizer: name)
      return try wrap(base.recognizer(rest).base, filter, descriptor, ParameterValues(prefixed))
    }
    let standard: AnyForceRecognizer
    do {
      standard = try make(descriptor.defaults)
    } catch {
      preconditionFailure("\(name): the defaults are invalid: \(error)")
    }
    return RecognizerCatalog.Entry(descriptor: descriptor, standard: standard, make: make)
  }

  /// `base` behind `filter`, as its concrete type.
  private static func wrap<Base: ForceRecognizer>(
    _ base: Base, _ filter: CausalFilter, _ variant: RecognizerDescription, _ values: ParameterValues
  ) -> AnyForceRecognizer {
    AnyForceRecognizer(FilteredRecognizer(base: base, filter: filter, variant: variant, filterValues: values))
  }

  /// The recognizer's description renamed `name`, with the filter's parameters (prefixed) first.
  private static func describe(_ kind: CausalFilterKind, _ base: RecognizerDescription, name: String)
    -> RecognizerDescription
  {
    var d = base
    d.name = name
    d.title = "\(base.title), behind a \(kind.title)"
    d.summary = "\(base.summary) Force first goes through a causal \(kind.title) (\(kind.rule))."
    d.rules = "Filter: \(kind.rule), restarted at touch-down, on every sample, clamped to [0, max]. Then: \(base.rules)"
    d.parameters =
      kind.parameters.map { spec in
        var spec = spec
        spec.name = kind.prefixed(spec.name)
        return spec
      } + base.parameters  // (comparison thresholds stay: they compare the filtered force)
    return d
  }
}
