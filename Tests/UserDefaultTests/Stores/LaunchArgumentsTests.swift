import Foundation
import Testing

@testable import PropertyListCodec
@testable import UserDefault

/// Darwin's argument domain holds `NSString`s, where Linux's holds Swift strings: both must
/// become the text a typed read converts (`-count 5` read through a `Key<Int>`).
@Suite struct LaunchArgumentsTests {
  @Test(
    "A launch argument that is not a valid Codable value is reported as the argument, not as stored JSON",
    .linuxFiles, arguments: ["store", "foundation"])
  func aBadCodableArgumentIsNamed(_ kind: String) throws {
    let directory = TemporaryDirectory()
    let run = try ChildProcess.run(
      "UserDefaultTestHelper", ["read-profile", kind, "argued", "-profile", "nope"],
      environment: ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path])
    #expect(run.status == 0 && run.output == "default\n", "\(run.output)\(run.error)")
    #expect(
      run.error.contains("the launch argument -profile cannot be read as Profile"), "\(run.error)")
    #expect(!run.error.contains("stored JSON"), "\(run.error)")
  }

  @Test func anNSStringArgumentIsText() throws {
    let domain: [String: Any] = ["count": NSString(string: "5"), "name": "plain"]
    // Without the bridge, the object would stay opaque to the conversion.
    guard case .other = StoredObject(NSString(string: "5") as Any) else {
      Issue.record("an NSString is expected to be an opaque object of its own")
      return
    }
    let values = LaunchArguments.objects(in: domain)
    guard case .string(let count)? = values["count"], case .string("plain")? = values["name"]
    else {
      Issue.record("arguments were not read as text: \(values)")
      return
    }
    #expect(count == "5")
    #expect(ArgumentText.readings(of: count).contains { $0 as? Int == 5 })
  }

  @Test func anArgumentIsFoundByKeyNumberAsByName() {
    var list = SearchList(arguments: ["count": .string("5")])
    // The first pass learns each number's answer, number 5 inside the range that learning
    // number 7 grew the table by; the second reads what it learnt.
    for _ in 0..<2 {
      let found = [
        list.isArgument("count", number: 3), list.isArgument("other", number: 0),
        list.isArgument("other", number: 7), list.isArgument("count", number: 5),
        list.isArgument("count", number: nil), list.isArgument("other", number: nil),
      ]
      #expect(found == [true, false, false, true, true, false])
    }
    var none = SearchList(arguments: [:])
    let isArgument = none.isArgument("count", number: 3)
    #expect(!isArgument)
  }

  @Test func argumentsThatAreNotPropertyListsAreLeftOut() {
    let values = LaunchArguments.objects(in: ["ok": 1, "bad": NSObject()])
    #expect(values.keys.sorted() == ["ok"])
  }
}
