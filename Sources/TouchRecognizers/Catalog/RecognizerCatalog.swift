/// A list of recognizers the tool can build by name: the built-in variants
/// (``RecognizerCatalog/builtIn``), and any you add.
///
/// Everything that lists or builds recognizers — `touchtrace recognizers`, `run`, `sweep`,
/// `tune`, `compare`, the `A+B` composition syntax, the benchmarks' replay suites, the property
/// tests — walks a catalog, so a recognizer is described once, by its type's
/// ``ConfigurableRecognizer/descriptor``.
///
/// A package that depends on TouchTrace adds its own recognizer with
/// ``adding(_:)`` and hands the catalog to whatever builds recognizers:
///
/// ```swift
/// let catalog = try RecognizerCatalog.builtIn.adding(MyPress.self)
/// let recognizer = try catalog.recognizer("my-press", settings: [("level", "0.4")])
/// ```
public struct RecognizerCatalog: Sendable {
  /// One recognizer of the catalog: its description and how to build it.
  public struct Entry: Sendable {
    /// The description.
    public let descriptor: RecognizerDescription
    /// The recognizer at its default parameters.
    public let standard: AnyForceRecognizer
    private let make: @Sendable (ParameterValues) throws(ParameterError) -> AnyForceRecognizer

    /// An entry made from parts: what a ``Resolver`` returns for a name it makes on the fly.
    ///
    /// - Parameters:
    ///   - descriptor: the description (its name is the full name, `exec:./mine.py`).
    ///   - standard: the recognizer at its default parameters.
    ///   - make: builds the recognizer from values resolved against `descriptor`.
    public init(
      descriptor: RecognizerDescription, standard: AnyForceRecognizer,
      make: @escaping @Sendable (ParameterValues) throws(ParameterError) -> AnyForceRecognizer
    ) {
      self.descriptor = descriptor
      self.standard = standard
      self.make = make
    }

    /// The entry for recognizer type `type`.
    ///
    /// - Precondition: `type` can be built at its declared defaults.
    public init<R: ConfigurableRecognizer>(_ type: R.Type) {
      descriptor = R.descriptor
      make = { values throws(ParameterError) in AnyForceRecognizer(try R(parameters: values)) }
      do {
        standard = AnyForceRecognizer(try R(parameters: R.descriptor.defaults))
      } catch {
        preconditionFailure("\(R.descriptor.name): the defaults are invalid: \(error)")
      }
    }

    /// The name.
    public var name: String { descriptor.name }

    /// Builds the recognizer with `values` set and the rest at their defaults.
    ///
    /// - Throws: ``ParameterError`` for an unknown parameter, a value of the wrong kind or out of
    ///   range, or a broken rule between parameters.
    public func recognizer(_ values: [String: ParameterValue] = [:]) throws(ParameterError) -> AnyForceRecognizer {
      try make(descriptor.resolve(values))
    }

    /// How a sweep treats the recognizer at its defaults: one pass per trace for each parameter
    /// listed (a first-crossing rule, ``ThresholdSweep``), replay for every other.
    public var onePassSweeps: [ThresholdSweep] { standard.thresholdSweeps }
  }

  /// Why a catalog could not be built.
  public enum CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Two recognizers share a name.
    case duplicateName(String)
    /// A name that the command line cannot address: empty, or holding `+`, `,`, `=`, `/`, `:` or
    /// a space.
    case invalidName(String)

    /// One line naming the problem.
    public var description: String {
      switch self {
      case .duplicateName(let name): "two recognizers are named '\(name)'"
      case .invalidName(let name):
        "'\(name)' cannot name a recognizer (it must be non-empty, without '+', ',', '=', '/', ':' or spaces)"
      }
    }
  }

  /// Makes the entry of a name that is not in the list (`exec:./mine.py`), or returns `nil` when
  /// the name is not of its form; throws when it is of its form but unusable.
  public typealias Resolver = @Sendable (_ name: String, _ catalog: RecognizerCatalog) throws(ParameterError) -> Entry?

  /// The entries, in listing order.
  public private(set) var entries: [Entry]
  /// The resolvers, tried in order for names not in ``entries``.
  private var resolvers: [Resolver] = []

  /// A catalog of `types`, in that order.
  ///
  /// - Throws: ``CatalogError`` for a repeated or unusable name.
  public init(_ types: [any ConfigurableRecognizer.Type]) throws(CatalogError) {
    entries = []
    for type in types { try add(Entry(type)) }
  }

  /// This catalog with `type` added at the end.
  ///
  /// - Throws: ``CatalogError`` when its name is taken or unusable.
  public func adding<R: ConfigurableRecognizer>(_ type: R.Type) throws(CatalogError) -> RecognizerCatalog {
    var copy = self
    try copy.add(Entry(type))
    return copy
  }

  private mutating func add(_ entry: Entry) throws(CatalogError) {
    let name = entry.name
    guard !name.isEmpty, !name.contains(where: { $0 == Composition.separator || ",= /:".contains($0) })
    else { throw .invalidName(name) }
    guard !entries.contains(where: { $0.name == name }) else { throw .duplicateName(name) }
    entries.append(entry)
  }

  /// The names, in listing order.
  public var names: [String] { entries.map(\.name) }

  /// The descriptions, in listing order.
  public var descriptions: [RecognizerDescription] { entries.map(\.descriptor) }

  /// This catalog with `resolver` tried (after those it has) for names that are not in the list:
  /// how the command line adds `exec:COMMAND` recognizers.
  public func resolving(_ resolver: @escaping Resolver) -> RecognizerCatalog {
    var copy = self
    copy.resolvers.append(resolver)
    return copy
  }

  /// The entry named `name`, or `nil` (see ``requireEntry(_:)``).
  public func entry(_ name: String) -> Entry? { try? requireEntry(name) }

  /// The entry named `name`: one of the list, one a resolver makes (``resolving(_:)``), or a
  /// recognizer behind a causal filter, `FILTER/NAME` (``CausalFilter``).
  ///
  /// - Throws: ``ParameterError``: ``ParameterError/Reason/unknownVariant(known:)`` for a name
  ///   nothing makes, or why a resolver or the filter syntax refused it.
  public func requireEntry(_ name: String) throws(ParameterError) -> Entry {
    if let entry = entries.first(where: { $0.name == name }) { return entry }
    for resolver in resolvers {
      if let entry = try resolver(name, self) { return entry }
    }
    if let entry = try FilteredEntry.entry(name, catalog: self) { return entry }
    throw ParameterError(variant: name, parameter: nil, .unknownVariant(known: names))
  }

  /// Builds recognizer `name` with `values` set, the rest at their defaults.
  ///
  /// - Throws: ``ParameterError``.
  public func recognizer(_ name: String, values: [String: ParameterValue] = [:]) throws(ParameterError)
    -> AnyForceRecognizer
  {
    try requireEntry(name).recognizer(values)
  }

  /// Builds recognizer `name` from settings written as text (`name`, `value`), as on the command
  /// line; the rest stay at their defaults.
  ///
  /// - Throws: ``ParameterError``.
  public func recognizer(_ name: String, settings: [(name: String, value: String)]) throws(ParameterError)
    -> AnyForceRecognizer
  {
    let entry = try requireEntry(name)
    return try entry.recognizer(entry.descriptor.parse(text: settings))
  }
}
