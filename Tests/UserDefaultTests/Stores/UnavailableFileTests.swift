import Foundation
import Testing

@testable import UserDefault

/// A preference file the process may not read (a mode; on iOS, data protection before the
/// first unlock, which gives `EPERM`) is unavailable, not damaged: it stays in place byte
/// for byte, reads give the defaults, it is reported once, and a write made meanwhile is
/// merged into it once it can be read. Regression: such a file was moved aside as damaged,
/// and the live file then held only the new key.
@Suite(.linuxFiles) struct UnavailableFileTests {
  /// How the child is started so that the file's mode binds it: as root, which reads any
  /// file, with the capabilities that bypass file modes dropped (`setpriv`, util-linux).
  static var launcher: [String] {
    geteuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search"] : []
  }

  @Test(arguments: ["store", "foundation"])
  func unreadableFileIsKeptAndWritesMergeOnceReadable(backend: String) throws {
    #if !os(Linux)
      return  // Foundation saves by itself elsewhere, and the child is started the Linux way
    #else
      if geteuid() == 0 {
        try #require(
          FileManager.default.isExecutableFile(atPath: Self.launcher[0]),
          "running as root, the test needs setpriv to make a file unreadable to its child")
      }
      let directory = TemporaryDirectory()
      let suite = "unavailable-\(backend)"
      let path = directory.path + "/" + suite + ".plist"
      let original = try PropertyListSerialization.data(
        fromPropertyList: ["kept": 1, "other": "text"], format: .binary, options: 0)
      try original.write(to: URL(fileURLWithPath: path))
      #expect(chmod(path, 0) == 0)
      let identity = try #require(Self.identity(at: path))

      let child = try RunningChild(
        "UserDefaultTestHelper", ["unavailable", suite, backend],
        environment: ["XDG_CONFIG_HOME": directory.path], launcher: Self.launcher)
      let before = child.readUntil("written")
      #expect(before.contains("read -1 saved false reports 1\n"), "\(before)")
      try #require(before.contains("written"), "\(before) \(child.errorText())")
      // The child has read and written: the file is as it was, where it was (its bytes
      // compared too where this process may read it: as root).
      #expect(Self.identity(at: path) == identity)
      if geteuid() == 0 { #expect(try Self.bytes(at: path) == original) }
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(!names.contains { $0.contains(".damaged-") }, "\(names)")

      #expect(chmod(path, 0o600) == 0)
      child.send("go")
      let after = child.finish()
      let expected = backend == "store" ? "merged 1 reports 1" : "merged -1 reports 1"
      #expect(after.contains(expected), "\(after) \(child.errorText())")
      #expect(child.process.terminationStatus == 0)
      let values = try #require(
        try PropertyListSerialization.propertyList(from: Self.bytes(at: path), format: nil)
          as? [String: Any])
      #expect(values["kept"] as? Int == 1)
      #expect(values["other"] as? String == "text")
      #expect(values["added"] as? Int == 2)
    #endif
  }

  static func bytes(at path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  /// What any rewrite, replacement or `chmod` of the file changes: the store's own identity
  /// of it (inode, size, modification time, read the way each platform's `stat` spells it)
  /// and its mode.
  struct FileState: Equatable {
    let identity: PreferencesFile.Identity
    let mode: mode_t
  }

  static func identity(at path: String) -> FileState? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileState(identity: PreferencesFile.Identity(info), mode: info.st_mode)
  }
}
