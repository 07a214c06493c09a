import TouchRecognizers

// MARK: - Conformance check

extension KotlinExport {
  /// The conformance check: `main(args)` runs the core on the vectors file `args[0]`, fed
  /// sample by sample and again with `tick` between samples, and compares every action and
  /// state change with the replay's, bit for bit.
  static func check(_ c: ExportConfiguration) -> String {
    let T = c.typeName
    return #"""
      //
      // The conformance check: runs \#(T) on the contacts of a vectors file (touchtrace-vectors 1)
      // and compares its actions and state changes with the replay's, bit for bit, twice: fed
      // sample by sample, and with tick() called before each later sample (at a timer that fell
      // due, and at the midpoint), which must change nothing. Kotlin standard library and java.io.
      //
      //   kotlinc \#(T).kt ConformanceCheck.kt -include-runtime -d check.jar
      //   java -jar check.jar ../vectors.txt
      //
      // Prints the first 10 differences, then "kotlin: N contacts, A actions, E transitions,
      // D differences" (D counts the runs that differ: at most two per contact); exits 1 when
      // D > 0, 2 when the file cannot be read.

      package \#(packageName)

      import java.io.File
      import java.io.IOException
      import kotlin.system.exitProcess

      /** A sample of the vectors file. */
      private class VectorSample(
          val phase: \#(T).Phase,
          val t: Double,
          val force: Double,
          val maxForce: Double,
          val x: Double,
          val y: Double
      )

      /** A contact of the vectors file: its samples and the replay's records (`a …`, `e …`, normalized). */
      private class VectorContact(val name: String) {
          val samples = ArrayList<VectorSample>()
          val expected = ArrayList<String>()
      }

      private class VectorsError(message: String) : Exception(message)

      /** The double whose IEEE 754 bits are the 16 hexadecimal digits [text]. */
      private fun bits(text: String): Double {
          if (text.length != 16) throw VectorsError("expected 16 hexadecimal digits, got '$text'")
          try {
              return java.lang.Double.longBitsToDouble(java.lang.Long.parseUnsignedLong(text, 16))
          } catch (e: NumberFormatException) {
              throw VectorsError("expected 16 hexadecimal digits, got '$text'")
          }
      }

      /** The bits of [value] as 16 lowercase hexadecimal digits. */
      private fun hex(value: Double): String {
          val digits = java.lang.Long.toHexString(java.lang.Double.doubleToRawLongBits(value))
          return "0".repeat(16 - digits.length) + digits
      }

      private fun phase(text: String): \#(T).Phase = when (text) {
          "began" -> \#(T).Phase.BEGAN
          "moved" -> \#(T).Phase.MOVED
          "stationary" -> \#(T).Phase.STATIONARY
          "ended" -> \#(T).Phase.ENDED
          "cancelled" -> \#(T).Phase.CANCELLED
          else -> throw VectorsError("unknown phase '$text'")
      }

      private fun action(a: \#(T).Action): String = "a ${a.stage.label} ${hex(a.t)}"

      private fun transition(e: \#(T).Transition): String =
          "e ${e.state.label} ${hex(e.t)} ${if (e.implicit) 1 else 0}"

      /** A record with its time in seconds, for the report. */
      private fun show(record: String?): String {
          if (record == null) return "nothing"
          val fields = record.split(" ")
          return if (fields.size >= 3 && fields[2].length == 16) "'$record' (t = ${bits(fields[2])})" else "'$record'"
      }

      /**
       * Runs a fresh core on [contact]: the actions the calls returned, then the transitions.
       * With [ticking], before each sample after the first: tick(timerDeadline) when it is due by
       * the sample's time, then tick at the midpoint of the two samples' times.
       */
      private fun run(contact: VectorContact, ticking: Boolean): List<String> {
          val core = \#(T)()
          val returned = ArrayList<\#(T).Action>()
          var previousT = 0.0
          for ((i, s) in contact.samples.withIndex()) {
              if (ticking && i > 0) {
                  val deadline = core.timerDeadline
                  if (deadline <= s.t) returned.addAll(core.tick(deadline))
                  returned.addAll(core.tick((previousT + s.t) / 2.0))
              }
              returned.addAll(core.feed(s.t, s.force, s.maxForce, s.x, s.y, s.phase))
              previousT = s.t
          }
          val records = ArrayList<String>()
          for (a in returned) records.add(action(a))
          for (e in core.transitions) records.add(transition(e))
          val kept = core.actions.map { action(it) }
          if (kept != returned.map { action(it) }) records.add("x the returned actions differ from core.actions: $kept")
          return records
      }

      fun main(args: Array<String>) {
          if (args.size != 1) {
              System.err.println("usage: java -jar check.jar VECTORS")
              exitProcess(2)
          }
          val path = args[0]
          val lines = try {
              File(path).readLines(Charsets.UTF_8)
          } catch (e: IOException) {
              System.err.println("$path: ${e.message}")
              exitProcess(2)
          }
          var contacts = 0
          var actions = 0
          var transitions = 0
          var differences = 0
          var number = 1
          try {
              val header = lines.firstOrNull()?.split(" ") ?: emptyList()
              if (header.size < 2 || header[0] != "touchtrace-vectors" || header[1] != "1") {
                  throw VectorsError("not a touchtrace-vectors 1 file")
              }
              val name = header.drop(2).joinToString(" ")
              if (name != \#(T).RECOGNIZER) {
                  System.err.println("note: the vectors are for '$name', the core is '${\#(T).RECOGNIZER}'")
              }
              var contact: VectorContact? = null
              for (k in 1 until lines.size) {
                  number = k + 1
                  val line = lines[k]
                  if (line.length == 0) continue
                  val f = line.split(" ")
                  when (f[0]) {
                      "contact" -> {
                          if (contact != null) throw VectorsError("contact before the previous one's end")
                          contact = VectorContact(f.drop(1).joinToString(" "))
                      }
                      "s" -> {
                          val c = contact ?: throw VectorsError("sample outside a contact")
                          if (f.size != 7) throw VectorsError("expected s PHASE T FORCE MAXFORCE X Y")
                          c.samples.add(VectorSample(phase(f[1]), bits(f[2]), bits(f[3]), bits(f[4]), bits(f[5]), bits(f[6])))
                      }
                      "a" -> {
                          val c = contact ?: throw VectorsError("action outside a contact")
                          if (f.size != 3 || f[1] !in listOf("action", "stage2", "release")) {
                              throw VectorsError("expected a action|stage2|release T")
                          }
                          c.expected.add("a ${f[1]} ${hex(bits(f[2]))}")
                      }
                      "e" -> {
                          val c = contact ?: throw VectorsError("transition outside a contact")
                          val states = listOf("possible", "began", "changed", "ended", "cancelled", "failed")
                          if (f.size != 4 || f[1] !in states || f[3] !in listOf("0", "1")) {
                              throw VectorsError("expected e STATE T 0|1")
                          }
                          c.expected.add("e ${f[1]} ${hex(bits(f[2]))} ${f[3]}")
                      }
                      "end" -> {
                          val c = contact ?: throw VectorsError("end outside a contact")
                          contact = null
                          contacts += 1
                          actions += c.expected.count { it.startsWith("a ") }
                          transitions += c.expected.count { it.startsWith("e ") }
                          for (ticking in listOf(false, true)) {
                              val got = run(c, ticking)
                              if (got == c.expected) continue
                              differences += 1
                              if (differences <= 10) {
                                  var k2 = 0
                                  while (k2 < got.size && k2 < c.expected.size && got[k2] == c.expected[k2]) k2 += 1
                                  println(
                                      "contact ${c.name} (${if (ticking) "ticking" else "plain"}): record ${k2 + 1}: " +
                                          "expected ${show(c.expected.getOrNull(k2))}, got ${show(got.getOrNull(k2))}")
                              }
                          }
                      }
                      else -> throw VectorsError("unknown record '${f[0]}'")
                  }
              }
              if (contact != null) throw VectorsError("the last contact has no end")
          } catch (e: VectorsError) {
              System.err.println("$path:$number: ${e.message}")
              exitProcess(2)
          }
          println("kotlin: $contacts contacts, $actions actions, $transitions transitions, $differences differences")
          if (differences > 0) exitProcess(1)
      }

      """#
  }
}
