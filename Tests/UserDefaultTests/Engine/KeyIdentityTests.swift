import Testing

@testable import UserDefault

/// Names made into identities once per process: what lets a suite keep its records in an
/// array (`SeenValues`).
@Suite("A name's identity in this process")
struct KeyIdentityTests {
  @Test func aNameKeepsItsIdentity() {
    let first = KeyIdentity.of("KeyIdentityTests.kept")
    let again = KeyIdentity.of("KeyIdentityTests.kept")
    #expect(first.number == again.number)
    #expect(first.path == again.path)
    #expect(KeyIdentity.existing("KeyIdentityTests.kept")?.number == first.number)
  }

  @Test func namesGetDistinctNumbersInOrder() {
    let names = (0..<50).map { "KeyIdentityTests.ordered\($0)" }
    let numbers = names.map { KeyIdentity.of($0).number }
    #expect(Set(numbers).count == names.count)
    #expect(numbers == numbers.sorted(), "numbers are given in the order names are first used")
    #expect(numbers.allSatisfy { $0 >= 0 })
    let paths = Set(names.map { KeyIdentity.of($0).path as AnyKeyPath })
    #expect(paths.count == names.count)
  }

  @Test func aNameNeverUsedHasNone() {
    #expect(KeyIdentity.existing("KeyIdentityTests.never used") == nil)
  }
}
