import Foundation
import Testing

@testable import UserDefault

/// Files as dotfiles managers and users leave them, through every writer of a preferences
/// file: a store, a Foundation instance's saving (a child, saved at exit), `update` (a
/// child), a migration, and the `defaults` tool.
@Suite("Linked, shared and frozen preference files", .linuxFiles)
struct LinkedAndFrozenFileTests {
  static let writers = ["store", "foundation", "update", "migration", "tool"]

  /// What a writer wrote, and what it said on failure.
  struct Outcome {
    let key: String
    let value: Int
    let failure: String
  }

  /// Writes one Int to suite `suite` in `directory` through `writer`.
  static func write(_ writer: String, suite: String, in directory: String) throws -> Outcome {
    let environment = ["XDG_CONFIG_HOME": directory, "HOME": directory]
    switch writer {
    case "store", "migration":
      let store = try PreferencesStore(suiteName: suite, directory: directory)
      let key = UserDefaults.Key<Int>("b", default: 0)
      do {
        if writer == "store" {
          store[key] = 2
          try store.flush()
        } else {
          let step = MigrationStep.custom("write b") { $0[key] = 2 }
          _ = try Migrations([Migration(1, step)]).run(on: store)
        }
        return Outcome(key: "b", value: 2, failure: "")
      } catch {
        return Outcome(key: "b", value: 2, failure: "\(error)")
      }
    case "foundation":
      let run = try ChildProcess.run(
        "UserDefaultTestHelper", ["set", suite, "b", "2"], environment: environment)
      return Outcome(key: "b", value: 2, failure: run.error)
    case "update":
      let run = try ChildProcess.run(
        "UserDefaultTestHelper", ["update-counter", "foundation", suite, "1"],
        environment: environment)
      return Outcome(key: "counter", value: 1, failure: run.status == 0 ? "" : run.output)
    default:
      let run = try ChildProcess.run(
        "defaults", ["write", suite, "b", "-int", "2"], environment: environment)
      return Outcome(key: "b", value: 2, failure: run.status == 0 ? "" : run.error)
    }
  }

  static func plist(_ values: [String: Any]) throws -> Data {
    try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
  }

  @Test("A symbolic link stays a link and the file it leads to takes the save", arguments: writers)
  func savesThroughALink(_ writer: String) throws {
    let home = TemporaryDirectory()
    let repository = TemporaryDirectory()
    let target = repository.path + "/dotfiles/linked.plist"
    try FileManager.default.createDirectory(
      atPath: repository.path + "/dotfiles", withIntermediateDirectories: true)
    try Self.plist(["a": 1]).write(to: URL(fileURLWithPath: target))
    // A relative link, as GNU Stow makes them.
    let link = home.path + "/linked.plist"
    let relative =
      "../" + (repository.path as NSString).lastPathComponent + "/dotfiles/linked.plist"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: relative)

    let outcome = try Self.write(writer, suite: "linked", in: home.path)
    #expect(outcome.failure.isEmpty, "\(outcome.failure)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == relative)
    let values = try PropertyListFile.values(at: target)
    #expect(values["a"] as? Int == 1 && values[outcome.key] as? Int == outcome.value)
    // No temporary file is left beside the link or the target.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: repository.path + "/dotfiles")
        == ["linked.plist"])
  }

  @Test(
    "A link whose file cannot be made fails the save, naming the link and its target; the link stays",
    arguments: writers)
  func reportsALinkThatCannotBeSavedThrough(_ writer: String) throws {
    let home = TemporaryDirectory()
    let link = home.path + "/nowhere.plist"
    // As a read-only store would refuse it: the target's directory does not exist.
    let target = home.path + "/missing-directory/nowhere.plist"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let outcome = try Self.write(writer, suite: "nowhere", in: home.path)
    #expect(
      outcome.failure.contains(link) && outcome.failure.contains(target), "\(outcome.failure)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
  }

  @Test("A file's permission bits are kept; a new file is 0600", arguments: writers)
  func keepsPermissionBits(_ writer: String) throws {
    let home = TemporaryDirectory()
    let shared = home.path + "/shared.plist"
    try Self.plist(["a": 1]).write(to: URL(fileURLWithPath: shared))
    chmod(shared, 0o644)
    #expect(try Self.write(writer, suite: "shared", in: home.path).failure.isEmpty)
    #expect(try Self.mode(of: shared) == 0o644)
    #expect(try PropertyListFile.values(at: shared)["a"] as? Int == 1)

    #expect(try Self.write(writer, suite: "new", in: home.path).failure.isEmpty)
    #expect(try Self.mode(of: home.path + "/new.plist") == 0o600)
  }

  @Test(
    "A file without its owner's write bit is never replaced; the save fails naming the file and the fix",
    arguments: writers)
  func leavesAFrozenFile(_ writer: String) throws {
    let home = TemporaryDirectory()
    let frozen = home.path + "/frozen.plist"
    let bytes = try Self.plist(["a": 1])
    try bytes.write(to: URL(fileURLWithPath: frozen))
    chmod(frozen, 0o444)
    let inode = try FileManager.default.attributesOfItem(atPath: frozen)[.systemFileNumber]
    let outcome = try Self.write(writer, suite: "frozen", in: home.path)
    #expect(
      outcome.failure.contains(frozen) && outcome.failure.contains("chmod u+w"),
      "\(outcome.failure)")
    #expect(FileManager.default.contents(atPath: frozen) == bytes)
    #expect(
      try FileManager.default.attributesOfItem(atPath: frozen)[.systemFileNumber] as? Int
        == inode as? Int)
    #expect(try Self.mode(of: frozen) == 0o444)
  }

  static func mode(of path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
  }
}
