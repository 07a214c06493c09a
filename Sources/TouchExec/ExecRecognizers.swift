package import TouchRecognizers

/// `exec:COMMAND` recognizers for a catalog (`resolving(_:)`), and the
/// lifetime of their processes.
package enum ExecRecognizers {
  /// What starts a name of an external recognizer: `exec:`.
  package static let scheme = "exec:"

  /// Makes the catalog entry of `exec:COMMAND` names: the command is started (and greeted) the
  /// first time its name is resolved, so a command that cannot start is reported before any
  /// data is read.
  ///
  /// The command runs in a process group of its own (killed with it), with only its three
  /// standard streams open and a minimal environment: ``inheritedVariables`` and the variables
  /// named in `environment`, each when set in the tool's environment.
  ///
  /// - Parameters:
  ///   - timeout: how long a command may stay silent while an answer is due, seconds.
  ///   - tolerance: how long after the lift an action may come (the matching tolerance), seconds.
  ///   - environment: names of further variables passed to the command (`--exec-env`).
  package static func resolver(timeout: Double, tolerance: Double, environment: [String] = [])
    -> RecognizerCatalog.Resolver
  {
    let variables = ChildProcess.environment(passing: environment)
    return { name, _ throws(ParameterError) in
      guard name.hasPrefix(scheme) else { return nil }
      let command = String(name.dropFirst(scheme.count)).trimmingSpaces
      guard !command.isEmpty else {
        throw ParameterError(
          variant: name, parameter: nil, .invalid("give a command after exec: (exec:'python3 mine.py')"))
      }
      let pool: ExecPool
      do throws(ChildFailure) {
        pool = try ExecPool.pool(command: command, timeout: timeout, environment: variables)
      } catch {
        throw ParameterError(
          variant: name, parameter: nil, .invalid("the command `\(command)` failed: \(error.message)"))
      }
      let descriptor = describe(name: name, command: command, hello: pool.hello)
      let make: @Sendable (ParameterValues) throws(ParameterError) -> AnyForceRecognizer = { values in
        AnyForceRecognizer(ExecRecognizer(variant: descriptor, parameters: values, slack: tolerance, pool: pool))
      }
      return RecognizerCatalog.Entry(
        descriptor: descriptor,
        standard: AnyForceRecognizer(
          ExecRecognizer(variant: descriptor, parameters: descriptor.defaults, slack: tolerance, pool: pool)),
        make: make)
    }
  }

  /// The variables a command inherits from the tool's environment when they are set: `PATH`
  /// (`/usr/bin:/bin` when unset), `HOME`, `LANG`, `LC_ALL` and `TMPDIR`.
  package static var inheritedVariables: [String] { ChildProcess.inheritedVariables }

  /// The longest line a command may write, in bytes: a longer one stops the run.
  package static var maximumLineBytes: Int { ChildProcess.maximumLineBytes }

  /// Why an `exec:` command could not start (or answer its hello), naming it; `nil` when every
  /// command resolved so far started.
  package static var startFailure: String? {
    ExecPool.firstStartFailure.map { "the command `\($0.command)` failed: \($0.failure.message)" }
  }

  /// Closes every command's processes (their input closed, then waited for): at the end of a
  /// command of the tool.
  package static func closeAll() { ExecPool.closeAll() }

  /// The description of `exec:COMMAND`.
  static func describe(name: String, command: String, hello: ExecProtocol.Hello) -> RecognizerDescription {
    let called = hello.name.map { " (\($0))" } ?? ""
    var d = RecognizerDescription(
      name: name, code: "exec", title: "External recognizer\(called)",
      summary: "Decisions of `\(command)`, asked contact by contact over the exec protocol (JSON Lines).",
      source: RecognizerSource(library: "external command", version: nil, link: nil, reference: command),
      style: .discrete, actionEvent: "an action the command reports (stage 1)",
      stage2Event: hello.stages == 2 ? "an action the command reports with stage 2" : nil,
      rules: "The command receives each contact as UIKit delivers it and answers its action times; "
        + "began at the first action, ended at the lift (failed without an action).",
      parameters: [])
    d.acceptsAnyParameter = true
    return d
  }
}
