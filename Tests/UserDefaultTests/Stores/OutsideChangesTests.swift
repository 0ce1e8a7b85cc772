import Foundation
import Testing

@testable import UserDefault

/// On Linux a Foundation instance's observers hear other processes' writes of its file:
/// the `defaults` tool's, and another program's through the library. Children of the
/// helper (a release build in CI's second run) with their own XDG_CONFIG_HOME.
@Suite("Other processes' writes reach a Foundation instance's observers", .serialized, .linuxFiles)
struct OutsideChangesTests {
  @Test(
    "Callbacks, sequences and Observation tracking hear another process's write",
    arguments: ["tool", "program"])
  func observersHearAnotherProcess(_ writer: String) throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    // The suite's file exists first, with another key, as a program's would.
    try PropertyListSerialization.data(
      fromPropertyList: ["other": "kept"], format: .xml, options: 0
    ).write(to: URL(fileURLWithPath: directory.path + "/watched.plist"))
    let watcher = try RunningChild(
      "UserDefaultTestHelper", ["watch-outside", "watched", "name", "42"],
      environment: environment)
    #expect(watcher.readUntil("ready").contains("ready"))
    let (status, _, error) =
      writer == "tool"
      ? try ChildProcess.run(
        "defaults", ["write", "watched", "name", "-int", "42"], environment: environment)
      : try ChildProcess.run(
        "UserDefaultTestHelper", ["set", "watched", "name", "42"], environment: environment)
    #expect(status == 0, "\(error)")
    let output = watcher.readUntil("\n" + "done")
    let lines = output.split(separator: "\n")
    for form in ["callback", "sequence", "tracked"] {
      #expect(lines.filter { $0.hasPrefix(form + " ") }.count == 1, "\(form): \(output)")
    }
    #expect(output.hasSuffix("done\n") || output.contains("\ndone"), "\(output)")
    _ = watcher.finish()
    // The watcher wrote nothing: the file holds the writer's value and the other key.
    let values = try PropertyListFile.values(at: directory.path + "/watched.plist")
    #expect(values["name"] as? Int == 42 && values["other"] as? String == "kept")
  }

  /// Two orders of events that once put an older value of another process's into
  /// Foundation: the watch stored the keys after letting go of the save lock, so a value of
  /// an older commit landed between two reads of one transaction ("b 3 2"); and after a save
  /// noted another process's value of a key and this process then saved over it, the watch
  /// brought the noted value in, over the one in the file ("a 3"); and a transaction's
  /// first read of a key put the file's value into Foundation over a write another thread
  /// made during the run, which the commit then saved ("run 1 after 1 file 2"). The helper
  /// holds the watch in a callback, or the run's body waits for the other thread, to make
  /// each order happen.
  @Test(
    "The file watch stores nothing while a transaction runs, nor a value saved over since",
    arguments: [
      ("watch-during-transaction", "b 3 3\n"), ("saved-over", "a 10\n"),
      ("write-during-run", "run 2 after 2 file 2\n"),
    ])
  func theWatchBringsOnlyCurrentValues(_ command: String, expected: String) throws {
    let directory = TemporaryDirectory()
    let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
    let (status, output, error) = try ChildProcess.run(
      "UserDefaultTestHelper", [command, "held"], environment: environment)
    #expect(status == 0, "\(error)")
    #expect(output == expected)
  }
}
