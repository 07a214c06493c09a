import TouchCore
import TouchIO

/// One contact (touch-down to lift-off) being assembled from a recording.
struct ImportedContact {
  /// Contact number in the file, in order of touch-down (0-based).
  let touch: Int
  let origin: TraceOrigin
  var metadata: TraceMetadata
  var t: [Double] = []
  var force: [Double] = []
  var x: [Double] = []
  var y: [Double] = []
  let hasPosition: Bool
  var validator: SampleValidator
  /// The first problem: message and position. A contact with a problem is skipped.
  var problem: (reason: String, position: TextPosition?)?

  var name: String { metadata.name }
}

/// Collects the contacts of one file into a `Dataset`, in touch-down order, applying the
/// loaders' rules: the trace model is checked sample by sample; in strict mode the first problem
/// throws `path:line:col: error:`; with `skipInvalid` the contact is skipped with its reason.
struct ContactCollector {
  let file: String
  let options: ImportOptions
  /// The id every contact of the file gets (see ``TraceImporter``).
  let id: String
  /// What a middle sample becomes when nothing the trace records changed since the previous
  /// sample (`stationary`, or `moved` for formats whose records are themselves change events).
  let unchangedPhase: TouchPhase
  private var results: [(touch: Int, trace: Trace?, origin: TraceOrigin, skip: SkippedTrace?)] = []
  private var anonymous: [SkippedTrace] = []
  private(set) var diagnostics: [Diagnostic] = []
  private var nextTouch = 0

  init(file: String, options: ImportOptions, unchangedPhase: TouchPhase = .stationary, id: String? = nil) {
    self.file = file
    self.options = options
    self.id = id ?? TraceImporter.traceID(forFile: file)
    self.unchangedPhase = unchangedPhase
  }

  /// Starts the next contact.
  /// - Parameters:
  ///   - position: where the contact starts in the file (its origin).
  ///   - maxForce: the recording's maximum force, before ``ImportOptions/maxForce`` fills its gap
  ///     (or replaces it, with ``ImportOptions/maxForceOverride``).
  mutating func open(
    at position: TextPosition?, maxForce: Double?, device: String?, session: String? = nil,
    hasPosition: Bool, timeSynthesized: Bool = false
  ) -> ImportedContact {
    let touch = nextTouch
    nextTouch += 1
    let maxForce = options.maxForce(recorded: maxForce)
    let metadata = TraceMetadata(
      id: id, touch: touch, user: options.user, session: session, device: options.device ?? device,
      maxForce: maxForce, timeSynthesized: timeSynthesized)
    return ImportedContact(
      touch: touch, origin: TraceOrigin(file: file, position: position), metadata: metadata,
      hasPosition: hasPosition, validator: SampleValidator(maxForce: maxForce))
  }

  /// Appends a sample after checking it; `tAt` and `forceAt` are where its time and force are
  /// written, for messages.
  mutating func append(
    _ contact: inout ImportedContact, t: Double, force: Double, x: Double = 0, y: Double = 0,
    tAt: TextPosition?, forceAt: TextPosition?
  ) throws(TraceLoadError) {
    guard contact.problem == nil else { return }
    if let problem = contact.validator.check(t: t, force: force, phase: nil) {
      let position = problem.field == "t" ? tAt : (forceAt ?? tAt)
      return try fail(&contact, TraceLoadError(.trace(problem), file: file, position: position))
    }
    if !x.isFinite || !y.isFinite {
      let text = "\(x.isFinite ? y : x)"
      return try fail(
        &contact,
        TraceLoadError(.trace(.infinite(field: x.isFinite ? "y" : "x", text: text)), file: file, position: tAt))
    }
    contact.t.append(t)
    contact.force.append(force)
    if contact.hasPosition {
      contact.x.append(x)
      contact.y.append(y)
    }
  }

  /// Records a problem with `contact` (strict mode: throws it, naming the trace).
  mutating func fail(_ contact: inout ImportedContact, _ error: TraceLoadError) throws(TraceLoadError) {
    guard options.skipInvalid else {
      var error = error
      error.trace = contact.name
      throw error
    }
    if contact.problem == nil { contact.problem = (error.message, error.position) }
  }

  /// A problem that belongs to no contact (a malformed line between contacts): strict mode
  /// throws it; with `skipInvalid` it is accounted as a skipped unnamed trace.
  mutating func failOutsideContacts(_ error: TraceLoadError) throws(TraceLoadError) {
    guard options.skipInvalid else { throw error }
    anonymous.append(
      SkippedTrace(trace: nil, origin: TraceOrigin(file: file, position: error.position), reason: error.message))
  }

  /// Adds a warning about the file.
  mutating func warn(_ message: String, at position: TextPosition? = nil) {
    diagnostics.append(Diagnostic(.warning, message, file: file, position: position))
  }

  /// Finishes `contact`: phases are `began` for the first sample, `terminal` (if given) for the
  /// last, and for the others `moved` when force or position changed, else ``unchangedPhase``.
  /// `terminal == nil` leaves the contact without an end sample (the recording stopped first).
  mutating func close(_ contact: ImportedContact, terminal: TouchPhase?) throws(TraceLoadError) {
    if let (reason, position) = contact.problem {
      results.append(
        (
          contact.touch, nil, contact.origin,
          SkippedTrace(trace: contact.name, origin: contact.origin, position: position, reason: reason)
        ))
      return
    }
    guard !contact.t.isEmpty else {
      // Readers append a sample when they open a contact, so this is only reached when that
      // first sample was rejected, which sets `problem` (skip mode) or throws (strict mode).
      let error = TraceLoadError(.trace(.emptyTrace), file: file, position: contact.origin.position)
      var skipping = contact
      try fail(&skipping, error)
      return try close(skipping, terminal: terminal)
    }
    let n = contact.t.count
    var phase = [TouchPhase](repeating: .moved, count: n)
    phase[0] = .began
    for k in 1..<max(n, 1) {
      let same =
        contact.force[k] == contact.force[k - 1]
        && (!contact.hasPosition || (contact.x[k] == contact.x[k - 1] && contact.y[k] == contact.y[k - 1]))
      phase[k] = same ? unchangedPhase : .moved
    }
    if n > 1, let terminal { phase[n - 1] = terminal }
    let trace = Trace(
      metadata: contact.metadata, t: contact.t, force: contact.force, phase: phase,
      x: contact.hasPosition ? contact.x : nil, y: contact.hasPosition ? contact.y : nil)
    trace.checkInvariants()
    results.append((contact.touch, trace, contact.origin, nil))
  }

  /// The dataset: traces in touch-down order; skips (named and unnamed) in the file order of
  /// where each starts.
  func dataset() -> Dataset {
    var dataset = Dataset(files: [file], diagnostics: diagnostics)
    var skipped = anonymous
    for result in results.sorted(by: { $0.touch < $1.touch }) {
      if let trace = result.trace {
        dataset.traces.append(trace)
        dataset.origins.append(result.origin)
      } else if let skip = result.skip {
        skipped.append(skip)
      }
    }
    dataset.skipped = skipped.enumerated().sorted { a, b in
      let pa = a.element.origin.position ?? TextPosition(line: 0, column: 0)
      let pb = b.element.origin.position ?? TextPosition(line: 0, column: 0)
      return pa != pb ? pa < pb : a.offset < b.offset
    }.map(\.element)
    return dataset
  }
}
