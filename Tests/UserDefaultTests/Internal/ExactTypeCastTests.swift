import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

@Suite("Casting without the runtime when the type is exact (ExactTypeCast)")
struct ExactTypeCastTests {
  /// Casts `object` to `Value` both ways and compares the results.
  static func expectSameAsCast<Value>(
    _: Value.Type, _ object: Any, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let fast = ExactTypeCast.value(of: object, as: Value.self)
    let cast = object as? Value
    // Compared by their descriptions, which show optionals' nesting (`Optional(nil)` for a
    // cast to `Int?` of an `Int?.none`), where property-list equality has no optionals.
    #expect(
      String(reflecting: fast) == String(reflecting: cast),
      "\(type(of: object)) \(object) as \(Value.self)", sourceLocation: sourceLocation)
  }

  @Test("Every sample object cast to each type gives what as? gives")
  func castMatchesTheRuntimeCast() {
    // The samples, and optionals inside an `Any`, which open to an `Optional` type.
    let optionals: [Any] = [Optional(7) as Any, Optional<Int>.none as Any]
    for object in StoredObjectTests.samples + optionals {
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
      Self.expectSameAsCast(NSObject.self, object)
      Self.expectSameAsCast(AnyHashable.self, object)
    }
  }

  // These pass with the fast path or without it (the fallback is `as?`); `exactlyIsExact`
  // is the test that pins the fast path.
  @Test("With the types written out, the cast gives the expected values")
  func castWithConcreteTypes() {
    #expect(ExactTypeCast.value(of: 7 as Any, as: Int.self) == 7)
    #expect(ExactTypeCast.value(of: 7 as Any, as: Int?.self) == .some(7))
    #expect(ExactTypeCast.value(of: 7 as Any, as: Double.self) == nil)
    #expect(ExactTypeCast.value(of: true as Any, as: Int.self) == nil)
    #expect(ExactTypeCast.value(of: "7" as Any, as: String.self) == "7")
    #expect(ExactTypeCast.value(of: Data([7]) as Any, as: Data.self) == Data([7]))
    let number = NSNumber(value: 7)
    #expect(ExactTypeCast.value(of: number as Any, as: Int.self) == 7)
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
    #expect(ExactTypeCast.exactly(opened: 7, as: Int.self) == 7)
    #expect(ExactTypeCast.exactly(opened: 7 as Any, as: Int.self) == nil, "an Any not opened")
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
    writer.set(1, forKey: "one")
    #expect(reader[UserDefaults.Key<Int>("int", default: 0)] == 7)
    #expect(reader[UserDefaults.Key<Double>("double", default: 0)] == 2.5)
    #expect(reader[UserDefaults.Key<Bool>("bool", default: false)] == true)
    #expect(reader[UserDefaults.Key<String>("string", default: "")] == "7")
    // Neither exact nor a cast: the key's decode reads these (the README's numeric rules).
    #expect(reader[UserDefaults.Key<Double>("int", default: 0)] == 7.0)
    #expect(reader[UserDefaults.Key<Bool>("one", default: false)] == true)
    // Types that the objects do not cast to fall back to the default, as before.
    #expect(reader[UserDefaults.Key<Int>("string", default: -1)] == -1)
    #expect(reader[UserDefaults.Key<String>("int", default: "none")] == "none")
  }
}
