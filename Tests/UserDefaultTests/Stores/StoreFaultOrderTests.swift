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
    let backups = try backups(in: directory)
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

  /// The damaged copies set aside in `directory`.
  private func backups(in directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("fault.plist.damaged-") }
  }

  @Test("A poll that finds the file half-written in place leaves it to its writer")
  func halfWrittenFileIsLeftToItsWriter() throws {
    Diagnostics.installRecorder()
    let directory = TemporaryDirectory()
    let store = try runningStore(in: directory)
    let path = directory.path + "/fault.plist"
    let heard = Recorder<String>()
    let observation = store.observeChanges { heard.append($0) }
    defer { observation.cancel() }
    var values = try PropertyListFile.values(at: path)
    values["added"] = 1
    let bytes = try PropertyListSerialization.data(
      fromPropertyList: values, format: .binary, options: 0)
    // What a program that writes in place does (truncate, write), with a poll in between.
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: bytes.prefix(bytes.count / 2))
    store.fileStore.reloadFromDisk()
    try handle.write(contentsOf: bytes.dropFirst(bytes.count / 2))
    try handle.close()
    store.fileStore.reloadFromDisk()

    #expect(heard.all == ["added"])
    #expect(store.integer(forKey: "added") == 1)
    #expect(try backups(in: directory).isEmpty)
    #expect(Diagnostics.events { $0.message.contains(path) }.isEmpty)
  }

  @Test("Damage a poll finds still there at the next poll is moved aside and reported")
  func damageThatStaysIsRepairedAtTheNextPoll() throws {
    Diagnostics.installRecorder()
    let directory = TemporaryDirectory()
    let store = try runningStore(in: directory)
    let path = directory.path + "/fault.plist"
    try FaultCase(name: "garbage", content: .bytes(Data("not a plist".utf8), mode: 0o600))
      .place(at: path)
    store.fileStore.reloadFromDisk()
    #expect(try backups(in: directory).isEmpty)
    store.fileStore.reloadFromDisk()

    #expect(try backups(in: directory).count == 1)
    #expect(Diagnostics.events { $0.kind == .damagedFile && $0.message.contains(path) }.count == 1)
    let final = try PropertyListFile.values(at: path)
    for index in 0..<5 { #expect(final["k\(index)"] as? String == "v\(index)") }
  }
}
