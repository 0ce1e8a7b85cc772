import Foundation
import Testing

@testable import UserDefault

@Suite("Casting without the runtime when the type is exact (ExactTypeCast)")
struct ExactTypeCastTests {
  /// Casts `object` to `Value` both ways and compares the results.
  static func expectSameAsCast<Value>(
    _: Value.Type, _ object: Any, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let fast = ExactTypeCast.value(of: object, as: Value.self)
    let cast = object as? Value
    #expect(
      StoredObjectTests.same(fast, cast), "\(type(of: object)) \(object) as \(Value.self)",
      sourceLocation: sourceLocation)
  }

  @Test("Every sample object cast to each type gives what as? gives")
  func castMatchesTheRuntimeCast() {
    for object in StoredObjectTests.samples {
      Self.expectSameAsCast(Int.self, object)
      Self.expectSameAsCast(Double.self, object)
      Self.expectSameAsCast(Bool.self, object)
      Self.expectSameAsCast(String.self, object)
      Self.expectSameAsCast(Data.self, object)
      Self.expectSameAsCast(Date.self, object)
      Self.expectSameAsCast(NSNumber.self, object)
      Self.expectSameAsCast(Int?.self, object)
      Self.expectSameAsCast([Any].self, object)
      Self.expectSameAsCast([Int].self, object)
    }
  }

  @Test("With the types written out, as an optimised read has them, the cast is the same")
  func castWithConcreteTypes() {
    #expect(ExactTypeCast.value(of: 7 as Any, as: Int.self) == 7)
    #expect(ExactTypeCast.value(of: 7 as Any, as: Int?.self) == .some(7))
    #expect(ExactTypeCast.value(of: 7 as Any, as: Double.self) == nil)
    #expect(ExactTypeCast.value(of: true as Any, as: Int.self) == nil)
    #expect(ExactTypeCast.value(of: "7" as Any, as: String.self) == "7")
    #expect(ExactTypeCast.value(of: Data([7]) as Any, as: Data.self) == Data([7]))
    let number = NSNumber(value: 7)
    #expect(ExactTypeCast.value(of: number as Any, as: Int.self) == ((number as Any) as? Int))
    #expect(ExactTypeCast.value(of: number as Any, as: NSNumber.self) === number)
    #expect(ExactTypeCast.value(of: [1, 2] as Any, as: [Int].self) == [1, 2])
  }

  @Test("Only the exact type passes the exact test: no bridging, subclass or optional")
  func exactlyIsExact() {
    // Through an `Any`, as the library calls it: the test fails if the `Any` is not opened.
    #expect(ExactTypeCast.exactly(7, as: Int.self) == 7)
    #expect(ExactTypeCast.exactly("7", as: String.self) == "7")
    #expect(ExactTypeCast.exactly(2.5, as: Double.self) == 2.5)
    #expect(ExactTypeCast.exactly(true, as: Bool.self) == true)
    #expect(ExactTypeCast.exactly(NSNumber(value: 7), as: Int.self) == nil)
    #expect(ExactTypeCast.exactly(Int64(7), as: Int.self) == nil)
    #expect(ExactTypeCast.exactly(Optional(7) as Any, as: Int.self) == nil)
    #expect(ExactTypeCast.exactly(7, as: Int?.self) == nil)
    #expect(ExactTypeCast.exactly(NSString(string: "7"), as: String.self) == nil)
    #expect(ExactTypeCast.exactly(NSString(string: "7"), as: NSObject.self) == nil)
    #expect(ExactTypeCast.sameType(7, as: Int.self) == 7)
    #expect(ExactTypeCast.sameType(7 as Any, as: Int.self) == nil, "an Any not opened")
  }

  @Test(
    "A Foundation instance's typed reads give what its objects cast to", arguments: [false, true])
  func foundationInstanceReads(throughSecondInstance: Bool) throws {
    let suite = "ExactTypeCastTests.\(UUID().uuidString)"
    let writer = try #require(UserDefaults(suiteName: suite))
    defer { writer.removePersistentDomain(forName: suite) }
    // A second object of the suite reads what the first wrote.
    let reader = throughSecondInstance ? try #require(UserDefaults(suiteName: suite)) : writer
    writer.set(7, forKey: "int")
    writer.set(2.5, forKey: "double")
    writer.set(true, forKey: "bool")
    writer.set("7", forKey: "string")
    writer.set(NSNumber(value: 3), forKey: "number")
    #expect(reader[UserDefaults.Key<Int>("int", default: 0)] == 7)
    #expect(reader[UserDefaults.Key<Double>("double", default: 0)] == 2.5)
    #expect(reader[UserDefaults.Key<Bool>("bool", default: false)] == true)
    #expect(reader[UserDefaults.Key<String>("string", default: "")] == "7")
    #expect(reader[UserDefaults.Key<Int>("number", default: 0)] == 3)
    // Types that the objects do not cast to fall back to the default, as before.
    #expect(reader[UserDefaults.Key<Int>("string", default: -1)] == -1)
    #expect(reader[UserDefaults.Key<String>("int", default: "none")] == "none")
  }
}
