import Foundation
import UserDefault

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Each new version of one file, as it is written, for `defaults watch`.
///
/// On Linux the directory is watched with inotify, so a version is seen the moment it is
/// renamed into place instead of at the next poll, and two writes a few milliseconds
/// apart are two versions, not one. The library writes a version to `<file>.tmp-…`, closes
/// it and renames it over the file, one writer at a time under the file lock; the watcher
/// reads the temporary file as soon as it is closed, so even when the next write has
/// already replaced the file by the time the rename is seen, this version's content is the
/// one reported. Elsewhere the file's identity is polled every 10 ms.
final class FileVersions {
  private let directory: String
  private let name: String
  private var path: String { directory + "/" + name }
  #if canImport(Glibc)
    private let descriptor: Int32
  #endif

  /// Starts watching `name` in `directory`; versions written from now on are reported.
  init(directory: String, name: String) throws(ToolError) {
    self.directory = directory
    self.name = name
    #if canImport(Glibc)
      descriptor = inotify_init1(Int32(IN_CLOEXEC))
      guard descriptor >= 0 else {
        throw ToolError("Cannot watch \(directory): \(PreferencesFile.describe(errno))")
      }
      let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
      guard inotify_add_watch(descriptor, directory, events) >= 0 else {
        throw ToolError("Cannot watch \(directory): \(PreferencesFile.describe(errno))")
      }
    #endif
  }

  /// Calls `body` with each new version's bytes (`nil` when the file was removed), until
  /// a signal stops the process.
  ///
  /// - Throws: ``ToolError`` when the kernel's events can no longer be read; the tool
  ///   then prints it and exits with status 1, as for any other failure.
  func forEachVersion(_ body: (Data?) -> Void) throws(ToolError) -> Never {
    // The watcher is stopped by a signal; a parent may have started it with those blocked
    // (a test runner's thread does), and then it would never stop.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    for stop in [SIGTERM, SIGINT, SIGHUP] {
      sigaddset(&stopSignals, stop)
      signal(stop, SIG_DFL)
    }
    pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    #if canImport(Glibc)
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      // The content of the temporary file closed last, waiting for its rename.
      var pending: Data?
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
          if errno == EINTR { continue }
          throw ToolError(
            "Cannot watch: reading events failed: \(PreferencesFile.describe(errno))")
        }
        var offset = 0
        while offset + 16 <= count {
          let (mask, length) = buffer.withUnsafeBytes { bytes in
            (
              bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
              Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            )
          }
          let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
          let eventName = String(decoding: nameBytes, as: UTF8.self)
          offset += 16 + length
          if eventName == name {
            if mask & UInt32(IN_MOVED_TO | IN_CLOSE_WRITE) != 0 {
              body(pending ?? FileManager.default.contents(atPath: path))
              pending = nil
            } else if !FileManager.default.fileExists(atPath: path) {
              body(nil)  // deleted, or moved aside
            }
          } else if eventName.hasPrefix(name + ".tmp-"), mask & UInt32(IN_CLOSE_WRITE) != 0 {
            // Read now: by the time its rename is seen the file may hold a newer version.
            pending = FileManager.default.contents(atPath: directory + "/" + eventName)
          }
        }
      }
    #else
      var last = identity()
      while true {
        usleep(10_000)
        let current = identity()
        guard current != last else { continue }
        last = current
        body(current == nil ? nil : FileManager.default.contents(atPath: path))
      }
    #endif
  }

  #if !canImport(Glibc)
    private func identity() -> [Int]? {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      return [
        Int(info.st_ino), Int(info.st_size), Int(info.st_mtimespec.tv_sec),
        Int(info.st_mtimespec.tv_nsec),
      ]
    }
  #endif
}
