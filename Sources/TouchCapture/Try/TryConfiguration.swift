import TouchCore

/// What one `touchtrace try` run serves: where, to whom, which configurations it replays, and
/// where a tried contact is saved.
package struct TryConfiguration: Sendable {
  /// The address the server binds: an IPv4 or IPv6 address, or `localhost`.
  package var host: String
  /// The TCP port; 0 picks a free one (the printed URL names it).
  package var port: UInt16
  /// The token every request must carry (`?token=`); required for a non-loopback ``host``.
  package var token: String?
  /// The largest request body accepted, bytes.
  package var maximumBodySize: Int
  /// The names the page shows for the configurations, in the order the replay gives their results
  /// (`deep-press threshold=0.35`).
  package var configurations: [String]
  /// The dataset directory saved contacts are added to; `nil`: saving is off.
  package var dataset: String?
  /// Who presses: the `user` of every saved trace.
  package var participant: String
  /// The device name of every saved trace; `nil`: the browser's description.
  package var device: String?

  /// A configuration.
  ///
  /// - Parameters:
  ///   - configurations: the names of the configurations replayed, in order.
  ///   - host: the address to bind (loopback by default).
  ///   - port: the TCP port (0: any free port).
  ///   - token: the access token, or `nil`.
  ///   - maximumBodySize: the largest request body, bytes.
  ///   - dataset: where saved contacts go, or `nil` (no saving).
  ///   - participant: the user of saved traces.
  ///   - device: the device name of saved traces, or `nil`.
  package init(
    configurations: [String], host: String = "127.0.0.1", port: UInt16 = 8080, token: String? = nil,
    maximumBodySize: Int = CaptureConfiguration.defaultMaximumBodySize, dataset: String? = nil,
    participant: String = "anonymous", device: String? = nil
  ) {
    self.configurations = configurations
    self.host = host
    self.port = port
    self.token = token
    self.maximumBodySize = maximumBodySize
    self.dataset = dataset
    self.participant = participant
    self.device = device
  }

  /// Checks the configuration before anything is bound or written, by capture's rules (the
  /// address, the token, the participant and device names), and that there is something to try.
  ///
  /// - Throws: ``CaptureError/usage(_:)``.
  package func validate() throws(CaptureError) {
    guard !configurations.isEmpty else {
      throw .usage("give at least one configuration to try (--recognizer, --configuration)")
    }
    guard configurations.count <= 8 else {
      throw .usage("at most 8 configurations at once, not \(configurations.count)")
    }
    var rules = CaptureConfiguration(
      dataset: dataset ?? ".", host: host, port: port, participant: participant, token: token,
      maximumBodySize: maximumBodySize, device: device)
    rules.intents = [.press]
    rules.count = 1
    try rules.validate()
  }
}
