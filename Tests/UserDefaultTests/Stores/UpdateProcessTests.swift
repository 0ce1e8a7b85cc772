import Foundation
import Testing

@testable import UserDefault

/// `update(_:_:)` and `transaction(_:)` across processes: children of the helper (a
/// release build in CI's second run) on one suite's file, as a store and as a Foundation
/// instance, whose saving the library does on Linux.
@Suite("Updates across processes", .serialized, .linuxFiles)
struct UpdateProcessTests {
  @Test(
    "4 processes × 500 updates of one counter count to exactly 2,000",
    arguments: [["store"], ["foundation"], ["store", "foundation"]])
  func processesCountExactly(_ kinds: [String]) throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let children = try (0..<4).map { index in
      try RunningChild(
        "UserDefaultTestHelper", ["update-counter", kinds[index % kinds.count], "count", "500"],
        environment: environment)
    }
    for child in children {
      let output = child.finish()
      #expect(child.process.terminationStatus == 0 && output == "done\n", "\(output)")
    }
    let values = try PropertyListFile.values(at: directory.path + "/count.plist")
    #expect(values["counter"] as? Int == 2_000)
  }

  @Test(
    "An update under a launch argument adds to the stored value, not the argument's; a key stored nowhere starts from the argument",
    arguments: ["store", "foundation"].flatMap { kind in
      ["update", "transaction"].flatMap { form in [(kind, form, 100), (kind, form, nil)] }
    })
  func updateUnderALaunchArgument(_ kind: String, _ form: String, stored: Int?) throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let path = directory.path + "/argued.plist"
    if let stored {
      let file = try PropertyListSerialization.data(
        fromPropertyList: ["counter": stored, "other": "kept"], format: .xml, options: 0)
      try file.write(to: URL(fileURLWithPath: path))
    }
    let (status, output, error) = try ChildProcess.run(
      "UserDefaultTestHelper", ["update-under-argument", kind, "argued", form, "-counter", "5"],
      environment: environment)
    #expect(status == 0, "\(output)\(error)")
    // Written: the stored value plus one (else the argument's plus one); read afterwards:
    // the argument, which still masks the key for plain reads.
    let expected = (stored ?? 5) + 1
    #expect(output == "\(expected) 5\n", "\(error)")
    let values = try PropertyListFile.values(at: path)
    #expect(values["counter"] as? Int == expected)
    #expect(values["other"] as? String == (stored == nil ? nil : "kept"))
  }

  /// Under a launch argument an update reads the suite's own value: when that cannot be
  /// read, the report blames it, not the argument, and keeps its cause even when it reads
  /// as the argument's text; when nothing is stored and the argument cannot be read, the
  /// report says the write is stored and still hidden by it.
  @Test(
    "An update under a launch argument reports what it could not read: the stored value or the argument",
    arguments: ["store", "foundation"].flatMap { kind in
      [(kind, "many", "5"), (kind, "many", "many"), (kind, nil, "many")]
    })
  func unreadableValueUnderALaunchArgument(_ kind: String, stored: String?, argument: String)
    throws
  {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    if let stored {
      let file = try PropertyListSerialization.data(
        fromPropertyList: ["counter": stored], format: .xml, options: 0)
      try file.write(to: URL(fileURLWithPath: directory.path + "/argued.plist"))
    }
    let (status, output, error) = try ChildProcess.run(
      "UserDefaultTestHelper",
      ["update-under-argument", kind, "argued", "update", "-counter", argument],
      environment: environment)
    #expect(status == 0, "\(output)\(error)")
    // Written: the default plus one; read afterwards: the argument, or the default when
    // the argument cannot be read either.
    #expect(output == (argument == "5" ? "1 5\n" : "1 0\n"), "\(error)")
    let values = try PropertyListFile.values(at: directory.path + "/argued.plist")
    #expect(values["counter"] as? Int == 1, "the write is stored in either case")
    let report = error.split(separator: "\n").first { $0.contains("transaction") }
    if stored == nil {
      #expect(report?.contains("the launch argument -counter cannot be read as Int") == true)
      #expect(
        report?.hasSuffix(
          "is stored, and the launch argument still hides it from plain reads") == true,
        "\(error)")
    } else {
      #expect(report?.contains("launch argument") == false, "\(error)")
      #expect(report?.contains("expected Int, found String many; ") == true, "\(error)")
      #expect(
        report?.hasSuffix("a write of the key in the transaction replaces the stored value")
          == true, "\(error)")
    }
  }

  @Test(
    "3 processes × 300 two-key transactions: a reader of the file never sees one key without the other",
    arguments: ["store", "foundation"])
  func readersSeeAllOrNothing(_ kind: String) throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let path = directory.path + "/pair.plist"
    let children = try (0..<3).map { _ in
      try RunningChild(
        "UserDefaultTestHelper", ["transactions", kind, "pair", "300"], environment: environment)
    }
    var reads = 0
    var torn: [String] = []
    while children.contains(where: { $0.process.isRunning }) {
      guard let data = FileManager.default.contents(atPath: path),
        let values = try? PropertyListSerialization.propertyList(from: data, format: nil)
          as? [String: Any]
      else { continue }
      reads += 1
      let a = values["a"] as? Int ?? 0
      let b = values["b"] as? Int ?? 0
      if a != b { torn.append("a \(a), b \(b)") }
    }
    for child in children {
      _ = child.finish()
      #expect(child.process.terminationStatus == 0)
    }
    #expect(
      torn.isEmpty, "\(torn.count) of \(reads) reads saw half a transaction: \(torn.prefix(5))")
    #expect(reads > 0)
    let values = try PropertyListFile.values(at: path)
    #expect(values["a"] as? Int == 900 && values["b"] as? Int == 900)
  }

  @Test(
    "Writers of transactions killed with SIGKILL at random moments leave a whole file with every acknowledged transaction",
    arguments: [("store", 40), ("foundation", 20)])
  func killedTransactionsLoseNothingAcknowledged(_ kind: String, rounds: Int) throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let path = directory.path + "/killed.plist"
    let contention = CPUContention()
    defer { contention.stop() }
    var acknowledged = 0
    for round in 0..<rounds {
      let children = try (0..<2).map { _ in
        try RunningChild(
          "UserDefaultTestHelper", ["transactions", kind, "killed", "forever"],
          environment: environment)
      }
      // Kill after a random number of returned transactions, read from the output.
      let lines = children.map { $0.readLines(Int.random(in: 1...15)) }
      for child in children { child.stop(abruptly: true) }
      for child in children {
        #expect(child.process.terminationStatus == SIGKILL, "round \(round) died on its own")
      }
      let returned = lines.joined().compactMap { Int($0) }
      #expect(!returned.isEmpty, "round \(round): no transaction returned")
      acknowledged = max(acknowledged, returned.max() ?? 0)
      let values = try PropertyListFile.values(at: path)
      let (a, b) = (values["a"] as? Int ?? -1, values["b"] as? Int ?? -2)
      #expect(a == b, "round \(round): a is \(a), b is \(b)")
      #expect(
        a >= acknowledged, "round \(round): \(acknowledged) was acknowledged, the file has \(a)")
      acknowledged = a
    }
  }

  @Test(
    "defaults write during another process's transaction waits for it",
    arguments: ["store", "foundation"])
  func toolWriteWaitsForATransaction(_ kind: String) throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let holder = try RunningChild(
      "UserDefaultTestHelper", ["hold-transaction", kind, "held"], environment: environment)
    #expect(holder.readUntil("holding").contains("holding"))
    let tool = try RunningChild(
      "defaults", ["write", "held", "a", "-int", "100"], environment: environment)
    // The transaction holds the lock until it is told to go on: the tool is still waiting.
    #expect(tool.process.isRunning)
    holder.send("go")
    #expect(holder.finish().contains("committed"))
    _ = tool.finish()
    #expect(tool.process.terminationStatus == 0)
    // The tool wrote after the transaction: its value won, and the transaction's other
    // key is there. Had it written during the transaction, the commit would have merged
    // the transaction's "a" = 1 over it.
    let values = try PropertyListFile.values(at: directory.path + "/held.plist")
    #expect(values["a"] as? Int == 100 && values["b"] as? Int == 1)
  }
}
