/// How a device turns the physical force of a finger or pen tip (newtons) into the numbers it
/// reports (device force units).
public enum ForceResponse: Hashable, Sendable {
  /// A force sensor: `unitsPerNewton · F` (3D Touch, Apple Pencil).
  case linear(unitsPerNewton: Double)
  /// A capacitive contact-size signal, which grows quickly while the finger pad flattens and
  /// then saturates: `scale · (1 − e^(−F / knee)) + slope · F`, with `knee` and `F` in newtons
  /// and `slope` in units per newton (Android pressure, touchpad `ABS_MT_PRESSURE`).
  case contactSize(scale: Double, knee: Double, slope: Double)

  /// The noise-free reading for a force of `newtons` (≥ 0), device units, before quantization
  /// and clamping.
  public func units(newtons: Double) -> Double {
    let f = Swift.max(newtons, 0)
    switch self {
    case .linear(let k):
      return k * f
    case .contactSize(let scale, let knee, let slope):
      return scale * (1 - SynthMath.exp(-f / knee)) + slope * f
    }
  }
}

/// Which sensor frames reach the application.
public enum Delivery: String, Hashable, Sendable {
  /// Only frames in which the reported force or position changed (UIKit `touchesMoved`, which
  /// fires for force-only changes on 3D Touch phones; the Linux input core, which drops frames
  /// without changes). Such traces hold no `stationary` samples.
  case changesOnly
  /// Every frame; unchanged frames become `stationary` samples (coalesced Apple Pencil touches).
  case everyFrame
}

/// A simulated input device: how it measures force, how often, with what resolution and noise.
///
/// Every number is documented with its source in <doc:SynthesisModel> ("Devices"); numbers
/// marked there as modelling choices are ours, not measurements.
public struct DeviceProfile: Hashable, Sendable, CustomStringConvertible {
  /// The name used on the command line and in the `device` column (`iphone6s`, …).
  public var name: String
  /// One line about the device.
  public var summary: String
  /// The largest force the device reports (device units); readings are clamped to it.
  public var maxForce: Double
  /// The step of the reported force grid (device units); `nil` for continuous values.
  public var forceStep: Double?
  /// Newtons to device units.
  public var response: ForceResponse
  /// Standard deviation of the sensor noise added before quantization (device units).
  public var sensorNoise: Double
  /// Nominal time between sensor frames (seconds).
  public var frameInterval: Double
  /// Standard deviation of the frame interval around its nominal value (seconds; limited to ±3 sd).
  public var frameJitter: Double
  /// Which frames are delivered.
  public var delivery: Delivery
  /// Whether the touch-down sample reports force 0 whatever the finger does (UIKit on 3D Touch
  /// phones: the `began` touch comes before the first force reading).
  public var firstSampleZero: Bool
  /// For contact-size sensors: the reading (device units) at which the device detects a contact
  /// and below which it reports the lift. `nil` when contact is detected independently of force
  /// (the 3D Touch screen's capacitive touch, the Pencil's tip).
  public var detectionLevel: Double?
  /// The grid of reported positions (points).
  public var positionStep: Double
  /// Width of the touch surface (points).
  public var width: Double
  /// Height of the touch surface (points).
  public var height: Double

  /// Creates a profile.
  public init(
    name: String, summary: String, maxForce: Double, forceStep: Double?, response: ForceResponse,
    sensorNoise: Double, frameInterval: Double, frameJitter: Double, delivery: Delivery,
    firstSampleZero: Bool, detectionLevel: Double?, positionStep: Double, width: Double,
    height: Double
  ) {
    self.name = name
    self.summary = summary
    self.maxForce = maxForce
    self.forceStep = forceStep
    self.response = response
    self.sensorNoise = sensorNoise
    self.frameInterval = frameInterval
    self.frameJitter = frameJitter
    self.delivery = delivery
    self.firstSampleZero = firstSampleZero
    self.detectionLevel = detectionLevel
    self.positionStep = positionStep
    self.width = width
    self.height = height
  }

  /// The name.
  public var description: String { name }

  /// A reading as the device reports it: quantized to ``forceStep`` (round to nearest level)
  /// and clamped to 0…``maxForce`` (saturation).
  ///
  /// Levels are computed as `k · step` (or `k / n` when the step is `1/n`), so a reported value
  /// is exactly the nearest double to a whole number of steps.
  public func report(units: Double) -> Double {
    var value = Swift.min(Swift.max(units, 0), maxForce)
    if let step = forceStep {
      let levels = (value / step).rounded()
      let reciprocal = (1 / step).rounded()
      // 1/60 is not a double: divide by the whole reciprocal instead of multiplying by the step.
      value = abs(1 / reciprocal - step) <= 1e-12 * step ? levels / reciprocal : levels * step
    }
    return Swift.min(value, maxForce)
  }

  // MARK: - The profiles

  /// 3D Touch force units per newton at the default ("Medium") sensitivity: 1 / 0.740 N, from a
  /// least-squares fit of Gallagher's 22 scale measurements (recognizers.md §0.2).
  public static let iPhoneUnitsPerNewton = 1 / 0.740

  /// iPhone 6s, 3D Touch at the default sensitivity: force 0…20/3 in steps of 1/60.
  public static let iphone6s = iPhone(
    name: "iphone6s", steps: 60,
    summary: "iPhone 6s 3D Touch, default sensitivity: 0…20/3 in steps of 1/60, ~15 ms")

  /// iPhone 6s with 3D Touch sensitivity "Light": steps of 1/48 (320 levels).
  public static let iphone6sLight = iPhone(
    name: "iphone6s-light", steps: 48,
    summary: "iPhone 6s 3D Touch, Light sensitivity: 0…20/3 in steps of 1/48, ~15 ms")

  /// iPhone 6s with 3D Touch sensitivity "Firm": steps of 1/72 (480 levels).
  public static let iphone6sFirm = iPhone(
    name: "iphone6s-firm", steps: 72,
    summary: "iPhone 6s 3D Touch, Firm sensitivity: 0…20/3 in steps of 1/72, ~15 ms")

  /// The 3D Touch profiles differ only in the grid: the raw sensor count (0…400 at Medium) is
  /// divided by 48, 60 or 72, so one newton reads 60/steps times the Medium value and the
  /// maximum 20/3 is reached at 320, 400 or 480 counts.
  private static func iPhone(name: String, steps: Double, summary: String) -> DeviceProfile {
    DeviceProfile(
      name: name, summary: summary, maxForce: 20.0 / 3.0, forceStep: 1 / steps,
      response: .linear(unitsPerNewton: iPhoneUnitsPerNewton * 60 / steps),
      sensorNoise: 0.4 / steps, frameInterval: 0.015, frameJitter: 0.001, delivery: .changesOnly,
      firstSampleZero: true, detectionLevel: nil, positionStep: 0.5, width: 375, height: 667)
  }

  /// An Apple Pencil-like stylus: 240 Hz, force 0…25/6 on the 3D Touch scale, continuous.
  public static let pencil = DeviceProfile(
    name: "pencil",
    summary: "Apple Pencil-like stylus: 240 Hz, force 0…25/6 (3D Touch scale), continuous",
    maxForce: 25.0 / 6.0, forceStep: nil, response: .linear(unitsPerNewton: iPhoneUnitsPerNewton),
    sensorNoise: 0.004, frameInterval: 1.0 / 240.0, frameJitter: 0.0002, delivery: .everyFrame,
    firstSampleZero: false, detectionLevel: nil, positionStep: 0.01, width: 1024, height: 1366)

  /// An Android phone whose "pressure" is a capacitive amplitude: 0…1 in steps of 0.005
  /// (`touch.pressure.scale` 0.005), saturating; readings above 1 are clamped to 1.
  public static let android = DeviceProfile(
    name: "android",
    summary: "Android touchscreen pressure (contact size): 0…1 in steps of 0.005, clamped, ~15 ms",
    maxForce: 1, forceStep: 0.005, response: .contactSize(scale: 1.15, knee: 1.2, slope: 0),
    sensorNoise: 0.006, frameInterval: 0.0149, frameJitter: 0.0005, delivery: .changesOnly,
    firstSampleZero: false, detectionLevel: 0.06, positionStep: 1.0 / 3.0, width: 360,
    height: 640)

  /// A Linux touchpad reporting `ABS_MT_PRESSURE` 0…255 in whole levels (a contact-size
  /// signal), ~81 Hz.
  public static let touchpad = DeviceProfile(
    name: "touchpad",
    summary: "Linux touchpad ABS_MT_PRESSURE: whole levels 0…255 (contact size), ~12 ms",
    maxForce: 255, forceStep: 1, response: .contactSize(scale: 75, knee: 0.35, slope: 8),
    sensorNoise: 0.8, frameInterval: 0.0123, frameJitter: 0.0004, delivery: .changesOnly,
    firstSampleZero: false, detectionLevel: 30, positionStep: 0.25, width: 630, height: 380)

  /// Every built-in profile, in the order `touchtrace synth --help` lists them.
  public static let all: [DeviceProfile] = [
    .iphone6s, .iphone6sLight, .iphone6sFirm, .pencil, .android, .touchpad,
  ]

  /// The built-in profile called `name`; `nil` if there is none.
  public static func named(_ name: String) -> DeviceProfile? {
    all.first { $0.name == name.lowercased() }
  }
}
