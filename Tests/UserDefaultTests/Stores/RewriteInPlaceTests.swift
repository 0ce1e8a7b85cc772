import Foundation
import Testing

@testable import UserDefault

/// Foundation on Linux rewrites a suite's file in place when a program calls
/// `synchronize()`: it truncates the file, then writes it, without the library's lock. A
/// save that reads the file meanwhile must wait for the rewrite, not move the file aside as
/// damaged and write only its own keys over the program's.
@Suite("A file rewritten in place is not taken for damage")
struct RewriteInPlaceTests {
  let directory = TemporaryDirectory()
  var file: PreferencesFile { PreferencesFile(directory: directory.path, suite: "app") }
  var path: String { directory.path + "/app.plist" }

  func write(_ data: Data) {
    #expect(FileManager.default.createFile(atPath: path, contents: data))
  }

  /// As Foundation writes it: the same file, truncated, then written.
  func rewriteInPlace(_ data: Data) {
    do {
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: 0)
      try handle.write(contentsOf: data)
      try handle.close()
    } catch {
      Issue.record("cannot rewrite \(path): \(error)")
    }
  }

  func inode() throws -> Int? {
    try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
  }

  func backups() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.contains(".damaged-")
    }
  }

  @Test func anEmptyFileThatFillsIsReadWhole() throws {
    let whole = try PropertyListSerialization.data(
      fromPropertyList: ["kept": 1, "other": "text"], format: .xml, options: 0)
    write(Data())
    let inodeBefore = try inode()
    var pauses = 0
    let contents = file.read {
      pauses += 1
      rewriteInPlace(whole)  // Foundation's write, after the truncation the first look found
    }
    guard case .values(let values, _, _) = contents else {
      Issue.record("read as \(contents)")
      return
    }
    #expect(values["kept"]?.object as? Int == 1 && values["other"]?.object as? String == "text")
    #expect(pauses == 1)
    #expect(try backups().isEmpty)
    #expect(try inode() == inodeBefore, "the same file, rewritten in place")
  }

  @Test func aHalfWrittenFileThatCompletesIsReadWhole() throws {
    let whole = try PropertyListSerialization.data(
      fromPropertyList: ["kept": 1], format: .xml, options: 0)
    write(whole.prefix(whole.count / 2))
    let contents = file.read { rewriteInPlace(whole) }
    guard case .values(let values, _, _) = contents else {
      Issue.record("read as \(contents)")
      return
    }
    #expect(values["kept"]?.object as? Int == 1)
    #expect(try backups().isEmpty)
  }

  @Test func damageThatStaysIsMovedAsideAfterOnePause() throws {
    write(Data("not a property list".utf8))
    var pauses = 0
    let contents = file.read { pauses += 1 }
    guard case .damaged(_, let backup?) = contents else {
      Issue.record("read as \(contents)")
      return
    }
    #expect(pauses == 1)
    #expect(try backups() == [URL(fileURLWithPath: backup).lastPathComponent])
  }

  @Test func anEmptyFileThatStaysEmptyIsDamageAfterEveryLook() throws {
    write(Data())
    var pauses = 0
    let contents = file.read { pauses += 1 }
    guard case .damaged(let reason, _?) = contents else {
      Issue.record("read as \(contents)")
      return
    }
    #expect(reason == "it is empty")
    #expect(pauses == PreferencesFile.settlingLooks - 1)
  }

  @Test func aFileThatIsNoRegularFileIsNotWaitedFor() throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    var pauses = 0
    let contents = file.read { pauses += 1 }
    guard case .damaged = contents else {
      Issue.record("read as \(contents)")
      return
    }
    #expect(pauses == 0)
  }
}
