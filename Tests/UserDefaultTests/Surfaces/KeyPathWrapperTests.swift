import Foundation
import Testing

@testable import UserDefault

/// Surface B without macros: entries written by hand on `UserDefaults`, read through
/// `@UserDefault(\.keyPath)`.
extension UserDefaults {
  var handWrittenGreeting: String {
    get { String(withKey: "key_handWrittenGreeting", in: self) ?? "hello" }
    set { newValue.store(in: self, withKey: "key_handWrittenGreeting") }
  }

  var handWrittenFlavor: Flavor? {
    get { Flavor(withKey: "key_handWrittenFlavor", in: self) }
    set { newValue.store(in: self, withKey: "key_handWrittenFlavor") }
  }
}

@Suite("@UserDefault over key paths")
struct KeyPathWrapperTests {
  @Test func readsAndWritesThroughTheEntry() {
    let suite = TestSuite()
    let greeting = UserDefault(\.handWrittenGreeting, defaults: suite.defaults)
    #expect(greeting.wrappedValue == "hello")
    greeting.wrappedValue = "hi"
    #expect(suite.defaults.string(forKey: "key_handWrittenGreeting") == "hi")
    #expect(suite.defaults.handWrittenGreeting == "hi")
  }

  @Test func projectedValueFindsTheKeyAndDefault() {
    let suite = TestSuite()
    let greeting = UserDefault(\.handWrittenGreeting, defaults: suite.defaults)
    greeting.wrappedValue = "hi"
    #expect(greeting.projectedValue.key == "key_handWrittenGreeting")
    #expect(greeting.projectedValue.defaultValue == "hello")
    #expect(!greeting.projectedValue.isDefaultValue)
    greeting.projectedValue.removeObject()
    #expect(greeting.wrappedValue == "hello")
    #expect(greeting.projectedValue.isDefaultValue)
  }

  @Test func optionalEntriesOfDeclaredTypes() {
    let suite = TestSuite()
    let flavor = UserDefault(\.handWrittenFlavor, defaults: suite.defaults)
    #expect(flavor.wrappedValue == nil)
    flavor.wrappedValue = .sour
    #expect(suite.defaults.string(forKey: "key_handWrittenFlavor") == "sour")
    flavor.wrappedValue = nil
    #expect(suite.defaults.object(forKey: "key_handWrittenFlavor") == nil)
  }

  @Test func helpersReadAndStore() {
    let suite = TestSuite()
    Point(x: 1, y: 2).store(in: suite.defaults, withKey: "point")
    #expect(Point(withKey: "point", in: suite.defaults) == Point(x: 1, y: 2))
    #expect(Point(withKey: "absent", in: suite.defaults) == nil)
  }
}
