/// What one (unit, chunk) item produced.
enum SweepItemResult: Sendable {
  case replayed(ReplayedChunk)
  case onePass(OnePassTable)
}
