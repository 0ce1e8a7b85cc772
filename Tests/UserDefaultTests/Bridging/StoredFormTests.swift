import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// A write skips the coding for a value stored as itself: what it stores must be what the
/// coding would have made, and only such values may skip it.
@Suite("The stored form of a written value")
struct StoredFormTests {
  /// `value` through a key's write path, and through its bridge's coding.
  private func forms<Value>(
    _ value: Value, bridge: ValueBridge<Value>
  ) throws -> (written: Any?, coded: Any?) {
    let key = KeyDescriptor(name: "form", bridge: bridge, defaultValue: .constant(value))
    return (try key.storedForm(of: value), try bridge.encode(value))
  }

  private func expectSame(_ forms: (written: Any?, coded: Any?), _ label: String) {
    switch forms {
    case (nil, nil): break
    case (let written?, let coded?):
      #expect(type(of: written) == type(of: coded), "\(label): \(type(of: written))")
      #expect(PropertyListEquality.isEqual(written, coded), "\(label)")
    default: Issue.record("\(label): \(String(describing: forms))")
    }
  }

  @Test("Int, String, Bool, Double and Data are stored as themselves, as their coding makes them")
  func valuesStoredAsThemselves() throws {
    #expect(ValueBridge<Int>.native().writesValueItself)
    #expect(ValueBridge<String>.native().writesValueItself)
    #expect(ValueBridge<Bool>.native().writesValueItself)
    #expect(ValueBridge<Double>.native().writesValueItself)
    #expect(ValueBridge<Data>.native().writesValueItself)
    expectSame(try forms(42, bridge: .native()), "Int")
    expectSame(try forms("text", bridge: .native()), "String")
    expectSame(try forms(true, bridge: .native()), "Bool")
    expectSame(try forms(-0.0, bridge: .native()), "Double -0.0")
    expectSame(try forms(Data([1, 2]), bridge: .native()), "Data")
  }

  @Test(
    "An optional, an unsigned or converted number, a date and a collection go through their coding")
  func valuesCodedOnTheirWay() throws {
    #expect(!ValueBridge<Int?>.shared.writesValueItself)
    #expect(!ValueBridge<UInt>.native().writesValueItself)
    #expect(!ValueBridge<Float>.native().writesValueItself)
    #expect(!ValueBridge<Date>.native().writesValueItself)
    #expect(!ValueBridge<[Int]>.shared.writesValueItself)
    expectSame(try forms(Int?.none, bridge: .shared), "nil")
    expectSame(try forms(Int?.some(7), bridge: .shared), "Int?")
    expectSame(try forms(UInt(7), bridge: .native()), "UInt")
    expectSame(try forms(Float(1.5), bridge: .native()), "Float")
  }
}
