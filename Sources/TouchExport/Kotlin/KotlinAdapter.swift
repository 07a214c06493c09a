import TouchRecognizers

// MARK: - Android adapter

extension KotlinExport {
  /// The Android `View.OnTouchListener`: `MotionEvent` samples of the first pointer fed to the
  /// core, timers posted on the view, actions passed to the app's callback.
  static func adapter(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    return #"""
      //
      // The Android adapter: Android platform API only.

      package \#(packageName)

      import android.os.SystemClock
      import android.view.MotionEvent
      import android.view.View

      /**
       * An Android [View.OnTouchListener] that runs [\#(T)] on the first pointer of each contact and
       * passes each action to [onAction] (on the UI thread, as it happens):
       *
       * ```
       * view.setOnTouchListener(\#(T)TouchListener { action -> if (action.stage == \#(T).Stage.ACTION) showPreview() })
       * ```
       *
       * - Samples: `ACTION_DOWN` is the touch-down (began); `ACTION_MOVE` feeds every historical
       *   (batched) sample of the tracked pointer, oldest first, then the current one (moved);
       *   `ACTION_UP`, or `ACTION_POINTER_UP` of the tracked pointer, is the lift (ended);
       *   `ACTION_CANCEL` is cancelled. Other pointers are ignored.
       * - Force: `MotionEvent.getPressure`, with maximum [MAX_FORCE] = 1.0: Android's pressure is
       *   nominally 0…1 (normalized force = pressure). It is device-calibrated, may exceed 1, and on
       *   many screens estimates contact size or is constant: check the device's readings.
       * - Time: `eventTime / 1000.0` seconds, in the `SystemClock.uptimeMillis()` time base, with
       *   millisecond resolution.
       * - Position: the view-local pixels divided by `displayMetrics.density`: dp, Android's points
       *   (what the recognizer's movement limits are in).
       * - Timers: while `core.timerDeadline` is finite, a `Runnable` posted with
       *   [View.postDelayed] calls `tick(SystemClock.uptimeMillis() / 1000.0)` once the deadline has
       *   come (same clock as `eventTime`); the action carries the deadline as its time. A sample
       *   still queued when the timer runs is seen after it (the replay would see it first).
       *
       * `onTouch` returns true: the listener consumes the view's touches (its click handling no
       * longer sees them).
       */
      class \#(T)TouchListener(private val onAction: (\#(T).Action) -> Unit) : View.OnTouchListener {
          companion object {
              /** The maximum of `MotionEvent.getPressure`: nominally 1.0 on Android. */
              const val MAX_FORCE: Double = 1.0
          }

          /** The core: its state, actions and transitions describe the current contact. */
          val core = \#(T)()

          private var pointerId = MotionEvent.INVALID_POINTER_ID
          private var timerView: View? = null
          private var timerDue = Double.POSITIVE_INFINITY
          private val timer = Runnable { timerFired() }

          override fun onTouch(view: View, event: MotionEvent): Boolean {
              val density = view.resources.displayMetrics.density.toDouble()
              when (event.actionMasked) {
                  MotionEvent.ACTION_DOWN -> {
                      pointerId = event.getPointerId(0)
                      feed(event, 0, density, \#(T).Phase.BEGAN)
                  }
                  MotionEvent.ACTION_MOVE -> {
                      val index = trackedIndex(event)
                      if (index >= 0) {
                          for (h in 0 until event.historySize) {
                              deliver(
                                  core.feed(
                                      event.getHistoricalEventTime(h) / 1000.0,
                                      event.getHistoricalPressure(index, h).toDouble(),
                                      MAX_FORCE,
                                      event.getHistoricalX(index, h).toDouble() / density,
                                      event.getHistoricalY(index, h).toDouble() / density,
                                      \#(T).Phase.MOVED))
                          }
                          feed(event, index, density, \#(T).Phase.MOVED)
                      }
                  }
                  MotionEvent.ACTION_POINTER_UP -> {
                      val index = event.actionIndex
                      if (pointerId != MotionEvent.INVALID_POINTER_ID && event.getPointerId(index) == pointerId) {
                          feed(event, index, density, \#(T).Phase.ENDED)
                          pointerId = MotionEvent.INVALID_POINTER_ID
                      }
                  }
                  MotionEvent.ACTION_UP, MotionEvent.ACTION_CANCEL -> {
                      val index = trackedIndex(event)
                      if (index >= 0) {
                          val phase = if (event.actionMasked == MotionEvent.ACTION_CANCEL) \#(T).Phase.CANCELLED else \#(T).Phase.ENDED
                          feed(event, index, density, phase)
                      }
                      pointerId = MotionEvent.INVALID_POINTER_ID
                  }
              }
              schedule(view)
              return true
          }

          /** The tracked pointer's index in [event], or -1 when it is not there. */
          private fun trackedIndex(event: MotionEvent): Int =
              if (pointerId == MotionEvent.INVALID_POINTER_ID) -1 else event.findPointerIndex(pointerId)

          /** Feeds the current sample of the pointer at [index]. */
          private fun feed(event: MotionEvent, index: Int, density: Double, phase: \#(T).Phase) {
              deliver(
                  core.feed(
                      event.eventTime / 1000.0,
                      event.getPressure(index).toDouble(),
                      MAX_FORCE,
                      event.getX(index).toDouble() / density,
                      event.getY(index).toDouble() / density,
                      phase))
          }

          private fun deliver(actions: List<\#(T).Action>) {
              for (action in actions) onAction(action)
          }

          /** Posts the timer for the core's deadline (or removes it when there is none). */
          private fun schedule(view: View) {
              val deadline = core.timerDeadline
              if (deadline == timerDue && view === timerView) return
              timerView?.removeCallbacks(timer)
              timerView = null
              timerDue = Double.POSITIVE_INFINITY
              if (deadline < Double.POSITIVE_INFINITY) {
                  // The first whole millisecond of uptime at or after the deadline.
                  var dueMillis = kotlin.math.ceil(deadline * 1000.0).toLong()
                  if (dueMillis / 1000.0 < deadline) dueMillis += 1
                  view.postDelayed(timer, maxOf(0L, dueMillis - SystemClock.uptimeMillis()))
                  timerView = view
                  timerDue = deadline
              }
          }

          private fun timerFired() {
              val view = timerView ?: return
              timerDue = Double.POSITIVE_INFINITY // this post has run
              deliver(core.tick(SystemClock.uptimeMillis() / 1000.0))
              schedule(view)
          }
      }

      """#
  }
}
