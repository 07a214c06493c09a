import ArgumentParser
import TouchPartials
import TouchStudy

/// `--shard I/N` and `--partial FILE`: one task of a job array, merged by `touchtrace merge`;
/// `--batch-traces N`: how many traces are read and scored at a time.
struct ShardOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Score only part I of N (0 ≤ I < N) of the contacts, chosen by a stable hash of the trace id; needs --partial.",
      valueName: "I/N"))
  var shard: String?

  @Option(
    help: ArgumentHelp(
      "Write a partial result to this file instead of the report; `touchtrace merge` makes the report from all of them.",
      valueName: "file"))
  var partial: String?

  @Option(
    help: ArgumentHelp(
      "Traces read and scored per batch: memory holds one batch's samples, and on several threads the next batch's too, read meanwhile (the report does not depend on it).",
      valueName: "n"))
  var batchTraces = ScoredStream.defaultBatch

  func validate() throws {
    guard batchTraces >= 1 else { throw ValidationError("--batch-traces must be at least 1, got \(batchTraces)") }
    if let shard, Shard(parsing: shard) == nil {
      throw ValidationError("--shard expects I/N with 0 ≤ I < N, for example 0/4; got '\(shard)'")
    }
    if let shard, let parsed = Shard(parsing: shard), parsed.count > StudyPartial.maximumShards {
      throw ValidationError("--shard \(shard): at most \(StudyPartial.maximumShards) shards")
    }
    if shard != nil && partial == nil {
      throw ValidationError(
        "--shard needs --partial FILE: each shard writes a partial, and `touchtrace merge` writes the report")
    }
  }

  /// The shard (all contacts without --shard).
  var selected: Shard { shard.flatMap(Shard.init(parsing:)) ?? .whole }
}
