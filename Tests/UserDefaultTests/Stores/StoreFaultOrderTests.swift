import Foundation
import Testing

@testable import UserDefault

/// A running store meets a change of its file by two paths: the poll (which finds it) and
/// the flush (whose read-merge-write finds it). Here each fault is met by both, in both
/// orders, with the timer's poll stopped, so the outcome does not depend on timing.
@Suite("A running store meets a replaced or deleted file by poll and flush, in either order")
struct StoreFaultOrderTests {
  /// A store in `directory` that has flushed `k0`…`k4`, with its timer's poll stopped:
  /// the test drives the poll itself.
  private func runningStore(in directory: TemporaryDirectory) throws -> PreferencesStore {
    let store = try PreferencesStore(suiteName: "fault", directory: directory.path)
    FilePoller.stopPolling(store.fileStore)
    for index in 0..<5 { store.set("v\(index)", forKey: "k\(index)") }
    try store.flush()
    return store
  }

  /// Writes `after` and flushes, and polls, in the order asked for.
  private func writeAndPoll(_ store: PreferencesStore, pollFirst: Bool) throws {
    if pollFirst { store.fileStore.reloadFromDisk() }
    store.set(1, forKey: "after")
    try store.flush()
    if !pollFirst { store.fileStore.reloadFromDisk() }
  }

  @Test(
    "A damaged file put in place is moved aside and the store writes all it holds",
    arguments: [true, false])
  func damagedFileKeepsEveryFlushedKey(pollFirst: Bool) throws {
    let directory = TemporaryDirectory()
    let store = try runningStore(in: directory)
    let path = directory.path + "/fault.plist"
    // The case of the red CI run (#224): a dictionary whose key has no value.
    let damaged = Data(
      #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>a</key></dict></plist>"#
        .utf8)
    try FaultCase(name: "malformed", content: .bytes(damaged, mode: 0o600)).place(at: path)
    try writeAndPoll(store, pollFirst: pollFirst)

    let final = try PropertyListFile.values(at: path)
    for index in 0..<5 { #expect(final["k\(index)"] as? String == "v\(index)") }
    #expect(final["after"] as? Int == 1)
    let backups = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("fault.plist.damaged-") }
    #expect(backups.count == 1)
    #expect(
      backups.first.map { FileManager.default.contents(atPath: directory.path + "/" + $0) }
        == damaged)
  }

  @Test(
    "A deleted file is the domain deleted: the store then holds only what was written after",
    arguments: [true, false])
  func deletedFileIsTheDomainDeleted(pollFirst: Bool) throws {
    let directory = TemporaryDirectory()
    let store = try runningStore(in: directory)
    let path = directory.path + "/fault.plist"
    try FileManager.default.removeItem(atPath: path)
    try writeAndPoll(store, pollFirst: pollFirst)

    #expect(try PropertyListFile.values(at: path).keys.sorted() == ["after"])
    #expect(store.object(forKey: "k0") == nil)
    #expect(store.integer(forKey: "after") == 1)
  }
}
