import Testing
import TouchCore

@testable import TouchRecognizers

@Suite("Parameters and the variant registry")
struct ParameterTests {
  @Test func everyCatalogEntryIsDescribedAndBuildsWithItsDefaults() throws {
    let catalog = RecognizerCatalog.builtIn
    let names = catalog.names
    #expect(Set(names).count == names.count)
    for entry in catalog.entries {
      let descriptor = entry.descriptor
      let recognizer = try catalog.recognizer(descriptor.name)
      #expect(recognizer.name == descriptor.name)
      #expect(recognizer.parameters == descriptor.defaults)
      #expect(entry.standard.parameters == descriptor.defaults)
      #expect(!descriptor.parameters.isEmpty)
      #expect(!descriptor.summary.isEmpty && !descriptor.summary.contains("\n"))
      #expect(!descriptor.sourceInfo.library.isEmpty && !descriptor.source.isEmpty)
      #expect(descriptor.stages.first?.kind == .action)
      for spec in descriptor.parameters { #expect(!spec.meaning.isEmpty) }
      // The parameter swept by default is a number parameter with a grid.
      if let swept = descriptor.sweptByDefault {
        let spec = try #require(descriptor.parameter(swept))
        #expect(spec.kind == .number && spec.grid != .none)
      }
      // Every one-pass sweep names a number parameter of the recognizer.
      for sweep in entry.onePassSweeps { #expect(descriptor.parameter(sweep.parameter)?.kind == .number) }
    }
  }

  @Test func catalogRejectsRepeatedNamesAndAcceptsOutsideRecognizers() throws {
    #expect(throws: RecognizerCatalog.CatalogError.duplicateName("deep-press")) {
      try RecognizerCatalog.builtIn.adding(FlexMonkeyDeepPress.self)
    }
    #expect(throws: RecognizerCatalog.CatalogError.self) {
      try RecognizerCatalog([]).adding(FlexMonkeyDeepPress.self).adding(FlexMonkeyDeepPress.self)
    }
    let extended = try RecognizerCatalog.builtIn.adding(FirstMovedCrossing.self)
    #expect(extended.names.last == "first-moved-crossing")
    #expect(extended.names.count == RecognizerCatalog.builtIn.names.count + 1)
    let recognizer = try extended.recognizer("first-moved-crossing", settings: [("threshold", "0.25")])
    #expect(recognizer.parameters[FirstMovedCrossing.threshold] == 0.25)
    #expect(throws: ParameterError.self) { try RecognizerCatalog.builtIn.recognizer("first-moved-crossing") }
  }

  @Test(arguments: [
    ("shunkit", "minimumForce", ParameterValue.number(3.0)),
    ("deep-press", "threshold", .number(0.75)),
    ("deep-press-yusuga", "forceSensitivity", .number(1.0)),
    ("deep-press-alg-squeeze", "squeezeThreshhold", .number(0.5)),
    ("deep-press-frosty", "forceThreshold", .number(1.0)),
    ("deep-press-ps", "minimumForce", .number(0.0)),
    ("gt-deep-press", "threshold", .number(0.75)),
    ("gt-deep-press", "hardTriggerMinTime", .number(0.5)),
    ("gt-deep-press", "faithfulStaleState", .flag(true)),
    ("flutter-force-press", "startPressure", .number(0.4)),
    ("flutter-force-press", "peakPressure", .number(0.85)),
    ("flutter-force-press", "touchSlop", .number(18)),
    ("rngh-force", "minForce", .number(0.2)),
    ("df-continuous", "baseForceTouchPressure", .number(1.0)),
    ("df-continuous", "triggeringForceTouchPressure", .number(2.5)),
    ("df-continuous", "forceTouchDelay", .number(0.5)),
    ("df-continuous", "timeout", .number(1.5)),
    ("df-continuous", "faithfulIntTruncation", .flag(true)),
    ("hysteresis", "pressThreshold", .number(0.12)),
    ("hysteresis", "releaseThreshold", .number(0.10)),
    ("pressure-js", "deepPressThreshold", .number(0.5)),
    ("pressure-js", "polyfillSpeedUp", .number(1000)),
    ("long-press", "minimumPressDuration", .number(0.5)),
    ("long-press", "allowableMovement", .number(10)),
    ("long-press-android", "longPressTimeout", .number(0.4)),
    ("long-press-android", "touchSlop", .number(8)),
    ("peak-release", "minimumValue", .number(0)),
    ("peak-release", "tolerance", .number(1)),
    ("zones", "normalizedForceThreshholds", .list([0.4, 0.85])),
    ("peek-pop", "peekThreshold", .number(0.2)),
    ("peek-pop", "popThreshold", .number(0.75)),
  ])
  func defaultsAreTheOriginalLibraries(variant: String, parameter: String, value: ParameterValue) throws {
    let recognizer = try AnyForceRecognizer(variant: variant)
    #expect(recognizer.parameters[parameter] == value)
  }

  @Test func rngMaxForceDefaultIsNotANumber() throws {
    guard case .number(let x)? = try AnyForceRecognizer(variant: "rngh-force").parameters["maxForce"] else {
      Issue.record("maxForce missing")
      return
    }
    #expect(x.isNaN)
  }

  @Test func settingsWrittenAsTextAreParsed() throws {
    let r = try AnyForceRecognizer(
      variant: "gt-deep-press",
      settings: [("threshold", "0.6"), ("faithfulStaleState", "false"), ("hardTriggerMinTime", "0.25")])
    #expect(r.parameters["threshold"] == .number(0.6))
    #expect(r.parameters["faithfulStaleState"] == .flag(false))
    #expect(r.parameters["hardTriggerMinTime"] == .number(0.25))
    let zones = try AnyForceRecognizer(variant: "zones", settings: [("normalizedForceThreshholds", "0.2, 0.5,0.75")])
    #expect(zones.parameters["normalizedForceThreshholds"] == .list([0.2, 0.5, 0.75]))
    let rngh = try AnyForceRecognizer(variant: "rngh-force", settings: [("maxForce", "nan")])
    #expect(rngh.requiresMaximumForce)
  }

  @Test func invalidValuesAreRejectedWithClearMessages() {
    func message(_ name: String, _ settings: [(name: String, value: String)]) -> String? {
      do {
        _ = try AnyForceRecognizer(variant: name, settings: settings)
        return nil
      } catch {
        return error.description
      }
    }
    #expect(
      message("shunkit", [("minimumForce", "-1")])
        == "recognizer 'shunkit': parameter 'minimumForce' must be in [0, inf), got -1")
    #expect(
      message("deep-press", [("threshold", "1.5")])
        == "recognizer 'deep-press': parameter 'threshold' must be in [0, 1], got 1.5")
    #expect(
      message("deep-press", [("threshold", "high")])
        == "recognizer 'deep-press': parameter 'threshold' must be a number, got 'high'")
    #expect(
      message("deep-press", [("thresold", "0.5")])
        == "recognizer 'deep-press' has no parameter 'thresold' (parameters: threshold)")
    #expect(
      message("gt-deep-press", [("faithfulStaleState", "maybe")])
        == "recognizer 'gt-deep-press': parameter 'faithfulStaleState' must be true or false, got 'maybe'")
    #expect(
      message("deep-press", [("threshold", "nan")])
        == "recognizer 'deep-press': parameter 'threshold' must be in [0, 1], got nan")
    #expect(
      message("long-press", [("minimumPressDuration", "0")])
        == "recognizer 'long-press': parameter 'minimumPressDuration' must be in (0, inf), got 0")
    #expect(
      message("flutter-force-press", [("peakPressure", "0.3")])
        == "recognizer 'flutter-force-press': parameter 'peakPressure': must be greater than startPressure (0.4), got 0.3"
    )
    #expect(
      message("hysteresis", [("releaseThreshold", "0.2")])
        == "recognizer 'hysteresis': parameter 'releaseThreshold': must not exceed pressThreshold (0.12), got 0.2")
    #expect(
      message("zones", [("normalizedForceThreshholds", "0.5,0.4")])
        == "recognizer 'zones': parameter 'normalizedForceThreshholds': thresholds must be sorted and distinct")
    #expect(message("nope", [])?.hasPrefix("unknown recognizer 'nope' (recognizers: shunkit, deep-press") == true)
  }

  @Test func requiresMaximumForceFollowsTheParameters() throws {
    #expect(try AnyForceRecognizer(variant: "shunkit").requiresMaximumForce)
    #expect(try !AnyForceRecognizer(variant: "shunkit", settings: [("faithfulClamp", "false")]).requiresMaximumForce)
    #expect(try !AnyForceRecognizer(variant: "long-press-android").requiresMaximumForce)
    #expect(
      try AnyForceRecognizer(variant: "long-press-android", settings: [("deepPressThreshold", "0.5")])
        .requiresMaximumForce)
    #expect(try !AnyForceRecognizer(variant: "df-continuous").requiresMaximumForce)
  }

  /// Every built-in at its defaults: the normalized-force variants need the maximum; time,
  /// position, radius and raw-force ones do not.
  @Test func requiresMaximumForceOfEveryBuiltIn() throws {
    let without: Set = ["df-continuous", "long-press", "long-press-android", "radius-peek-pop", "tap"]
    for name in RecognizerCatalog.builtIn.names {
      #expect(try AnyForceRecognizer(variant: name).requiresMaximumForce == !without.contains(name), "\(name)")
    }
  }
}
