/// A simulated person: how hard, how fast and how steadily they touch.
///
/// Users are drawn from the seed alone, so the same seed gives the same people on every device
/// profile (user `u01` of seed 7 is one person whether she uses `iphone6s` or `touchpad`).
public struct SynthUser: Hashable, Sendable {
  /// The user's name in trace files: `u01`, `u02`, …
  public var id: String
  /// Multiplies every planned force level (log-normal, σ = 0.25, limited to ×0.47…×2.1).
  public var forceScale: Double
  /// Divides every ramp, release and movement time (log-normal, σ = 0.2).
  public var speed: Double
  /// Multiplies the tremor amplitude (uniform 0.5…2).
  public var tremorGain: Double
  /// Frequency of the physiological tremor, hertz (uniform 8…12 Hz).
  public var tremorFrequency: Double
  /// Multiplies the slow drift of the contact position (uniform 0.5…1.5).
  public var driftGain: Double

  /// Creates a user.
  public init(
    id: String, forceScale: Double, speed: Double, tremorGain: Double, tremorFrequency: Double,
    driftGain: Double
  ) {
    self.id = id
    self.forceScale = forceScale
    self.speed = speed
    self.tremorGain = tremorGain
    self.tremorFrequency = tremorFrequency
    self.driftGain = driftGain
  }

  /// User number `index` (0-based) of `seed`.
  public static func make(index: Int, seed: UInt64) -> SynthUser {
    precondition(index >= 0, "user numbers start at 0")
    var rng = SynthRandom(seed: seed, stream: 0x5553_4552_0000_0000 | UInt64(index))
    let forceScale = rng.logNormalFactor(sigma: 0.25)
    let speed = rng.logNormalFactor(sigma: 0.2)
    let tremorGain = rng.uniform(0.5, 2)
    let tremorFrequency = rng.uniform(8, 12)
    let driftGain = rng.uniform(0.5, 1.5)
    return SynthUser(
      id: name(index), forceScale: forceScale, speed: speed, tremorGain: tremorGain,
      tremorFrequency: tremorFrequency, driftGain: driftGain)
  }

  /// `u01` for index 0: two digits at least.
  static func name(_ index: Int) -> String {
    let number = String(index + 1)
    return "u" + (number.count < 2 ? "0" + number : number)
  }
}
