extension RecognizerCatalog {
  /// The built-in recognizers, in listing order: the published force-press recognizers (V1–V12),
  /// the platform's tap and long press, and ours.
  ///
  /// Adding a built-in recognizer is one new file in `Variants/` and one line here (see the
  /// AddingARecognizer article).
  public static let builtIn: RecognizerCatalog = {
    do {
      return try RecognizerCatalog([
        ShunkitForceTouch.self,
        FlexMonkeyDeepPress.self,
        YusugaForceTouch.self,
        ALGSqueeze.self,
        FrostyForceTouch.self,
        PSForceTouch.self,
        GTForceTouch.self,
        FlutterForcePress.self,
        RNGHForceTouch.self,
        DFContinuousForceTouch.self,
        HysteresisLatch.self,
        PressureJSDeepPress.self,
        PressureJSPointerDeepPress.self,
        IOSLongPress.self,
        AndroidLongPress.self,
        PeakRelease.self,
        ThresholdZones.self,
        PeekPop.self,
        RadiusPeekPop.self,
        TapRecognizer.self,
        StablePress.self,
      ])
    } catch {
      preconditionFailure("the built-in catalog: \(error)")
    }
  }()
}
