import Testing

@testable import TouchTuning

/// The numbers of a swept axis the grid-edge caveat compares with: NaN is a setting ("off"),
/// not a point of the axis.
@Suite struct VerdictAxisTests {
  @Test func nanIsLeftOutAndTheOrderIsAscendingWhateverTheInput() {
    let grid: [Double] = [0.8, .nan, 0.6, 0.6, .nan, 0.7]
    // Every rotation of the input: one answer.
    for k in grid.indices {
      let rotated = Array(grid[k...] + grid[..<k])
      #expect(Verdict.sweptNumbers(rotated) == [0.6, 0.7, 0.8])
    }
    #expect(Verdict.sweptNumbers([.nan, .nan]).isEmpty)
  }
}
