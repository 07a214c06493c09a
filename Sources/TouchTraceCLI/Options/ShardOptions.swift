import ArgumentParser
import TouchPartials

/// `--shard I/N` and `--partial FILE`: one task of a job array, merged by `touchtrace merge`.
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

  func validate() throws {
    if let shard, Shard(parsing: shard) == nil {
      throw ValidationError("--shard expects I/N with 0 ≤ I < N, for example 0/4; got '\(shard)'")
    }
    if shard != nil && partial == nil {
      throw ValidationError("--shard needs --partial FILE: each shard writes a partial, and `touchtrace merge` writes the report")
    }
  }

  /// The shard (all contacts without --shard).
  var selected: Shard { shard.flatMap(Shard.init(parsing:)) ?? .whole }
}
