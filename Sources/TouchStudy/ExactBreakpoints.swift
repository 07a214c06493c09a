public import TouchEvaluation

extension ExactAxisBuilder {
  /// The first pass of an exact sweep: adds the breakpoints of every trace `input` selects (its
  /// filters applied), read `batchTraces` at a time, so memory holds the distinct breakpoints
  /// and one batch.
  ///
  /// - Returns: the distinct maximum possible forces of those traces (force units), ascending:
  ///   what a default grid of the same parameter would follow.
  /// - Throws: `TraceLoadError` from reading, as a sweep of `input` gives it.
  public mutating func add(reading input: StudyInput, batchTraces: Int) throws -> [Double] {
    var source = try BatchSource(input.paths, options: input.loadOptions, batchTraces: batchTraces)
    var maximumForces = Set<Double>()
    while var batch = try source.next() {
      if !input.filters.isEmpty { _ = batch.keep(matching: input.filters) }
      add(batch.traces)
      for trace in batch.traces { if let m = trace.metadata.maxForce { maximumForces.insert(m) } }
    }
    return maximumForces.sorted()
  }
}
