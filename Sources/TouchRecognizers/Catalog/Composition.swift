/// The rules of require-to-fail compositions, in one place: the `DEPENDENT+REQUIRED` syntax
/// (`tap+deep-press`: the tap waits for deep-press to fail), the `required.` prefix of the
/// required recognizer's parameters, and which recognizers may be composed.
public enum Composition {
  /// What joins the two names: `tap+deep-press`.
  public static let separator: Character = "+"
  /// What prefixes the required recognizer's parameter names: `required.threshold`.
  public static let requiredPrefix = "required."
  /// The code of a composition's description.
  public static let code = "require-to-fail"

  /// `dependent+required`.
  public static func name(dependent: String, required: String) -> String {
    "\(dependent)\(separator)\(required)"
  }

  /// The two names of `DEPENDENT+REQUIRED`, or the one name of `NAME` (`required` is `nil`);
  /// `nil` when the text is neither (an empty part, more than one `+`).
  ///
  /// A name with a scheme (`exec:COMMAND`) runs to the end of the text, whatever its command
  /// holds: `exec:…` alone is one name, and `tap+exec:…` splits at the first `+`.
  public static func split(_ text: String) -> (dependent: String, required: String?)? {
    let colon = text.firstIndex(of: ":")
    guard let plus = text.firstIndex(of: separator), colon.map({ plus < $0 }) ?? true else {
      return text.isEmpty ? nil : (text, nil)
    }
    let dependent = String(text[..<plus])
    let required = String(text[text.index(after: plus)...])
    guard !dependent.isEmpty, !required.isEmpty, !required.contains(separator) || required.contains(":") else {
      return nil
    }
    return (dependent, required)
  }

  /// The items of a comma-separated list of recognizers, each trimmed: commas inside single or
  /// double quotes (in an `exec:` command) do not separate.
  public static func items(_ text: String) -> [String] {
    var items: [String] = []
    var current = ""
    var quote: Character?
    for c in text {
      if let q = quote {
        if c == q { quote = nil }
      } else if c == "'" || c == "\"" {
        quote = c
      } else if c == "," {
        items.append(current.trimmingSpaces)
        current = ""
        continue
      }
      current.append(c)
    }
    items.append(current.trimmingSpaces)
    return items
  }

  /// `required.NAME`.
  public static func prefixed(_ name: String) -> String { requiredPrefix + name }

  /// `NAME` for `required.NAME`; `nil` for a name without the prefix.
  public static func unprefixed(_ name: String) -> String? {
    name.hasPrefix(requiredPrefix) ? String(name.dropFirst(requiredPrefix.count)) : nil
  }

  /// The declarations of a composition's parameters: the dependent's, then the required one's
  /// prefixed.
  public static func parameters(dependent: [ParameterSpec], required: [ParameterSpec]) -> [ParameterSpec] {
    dependent
      + required.map { spec in
        var spec = spec
        spec.name = prefixed(spec.name)
        return spec
      }
  }

  /// The values of a composition's parameters: the dependent's, then the required one's prefixed.
  public static func values(dependent: ParameterValues, required: ParameterValues) -> ParameterValues {
    ParameterValues(
      dependent.entries + required.entries.map { ParameterValues.Entry(name: prefixed($0.name), value: $0.value) })
  }

  /// Checks that `dependent` may wait for `required` to fail.
  ///
  /// - Parameter catalog: names the recognizers that can wait, for the message.
  /// - Throws: ``ParameterError`` when `dependent` cannot wait for another recognizer, or
  ///   `required` is already a composition.
  static func check(
    dependent: RecognizerDescription, required: RecognizerDescription, catalog: RecognizerCatalog
  ) throws(ParameterError) {
    guard dependent.canWaitForFailure else {
      let names = catalog.descriptions.filter(\.canWaitForFailure).map(\.name)
      throw ParameterError(
        variant: dependent.name, parameter: nil,
        .invalid("only \(names.joined(separator: ", ")) can wait for another recognizer to fail"))
    }
    guard required.code != code else {
      throw ParameterError(variant: required.name, parameter: nil, .invalid("compositions cannot be nested"))
    }
  }
}
