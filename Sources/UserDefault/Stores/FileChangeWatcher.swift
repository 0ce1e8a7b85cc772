import Dispatch
import Foundation
import PropertyListCodec

#if canImport(Glibc)
  import Glibc
#endif

/// Something told when its preferences file may have changed on disk.
protocol FileChangeListener: AnyObject, Sendable {
  /// Called on the watcher's queue, one call at a time.
  func fileMayHaveChanged()
}

/// Tells listeners when another process (or this one) replaces, rewrites or removes a
/// preferences file, through one `inotify` instance for the whole process (Linux); on other
/// platforms it watches nothing.
///
/// The kernel tells: nothing is polled, so a suite nobody changes costs no wake-ups, and a
/// change arrives within milliseconds. The directory is watched, not the file, because
/// every writer of a preferences file replaces it by `rename`. A watch of a missing
/// directory is retried by ``watchAgain(_:)``, after this process made the directory.
enum FileChangeWatcher {
  private final class Entry {
    let file: PreferencesFile
    weak var listener: (any FileChangeListener)?
    init(_ file: PreferencesFile, _ listener: any FileChangeListener) {
      self.file = file
      self.listener = listener
    }
  }

  private struct Watched: @unchecked Sendable {
    // Only touched inside the lock; the source is Dispatch's, reached once it is made.
    var descriptor: Int32 = -1
    var source: DispatchSourceRead?
    /// By watch descriptor, then file name.
    var entries: [Int32: [String: [Entry]]] = [:]
    var directories: [String: Int32] = [:]
    /// Registrations since entries of listeners that are gone were last dropped.
    var sinceSweep = 0

    /// Drops entries whose listener is gone, every 256 registrations: a program that makes
    /// and drops suites of many names keeps no record of each.
    mutating func sweepIfDue() {
      sinceSweep += 1
      guard sinceSweep >= 256 else { return }
      sinceSweep = 0
      for (descriptor, files) in entries {
        entries[descriptor] = files.compactMapValues { found in
          let live = found.filter { $0.listener != nil }
          return live.isEmpty ? nil : live
        }
      }
    }
  }
  private static let watched = Lock(Watched())
  private static let queue = DispatchQueue(label: "UserDefault.FileChangeWatcher", qos: .utility)

  /// Tells `listener` of changes of `file` until the listener is gone.
  ///
  /// - Returns: Whether the file's directory is watched (`false`: missing, or no inotify).
  @discardableResult
  static func watch(_ file: PreferencesFile, for listener: any FileChangeListener) -> Bool {
    #if canImport(Glibc)
      let name = (file.path as NSString).lastPathComponent
      let entry = Entry(file, listener)
      let (isWatched, sourceToStart) = watched.withLock { watched -> (Bool, DispatchSourceRead?) in
        var made: DispatchSourceRead?
        if watched.descriptor < 0 {
          watched.descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
          guard watched.descriptor >= 0 else { return (false, nil) }
          let source = DispatchSource.makeReadSource(
            fileDescriptor: watched.descriptor, queue: queue)
          watched.source = source
          made = source
        }
        let directory = file.directory
        let descriptor: Int32
        if let known = watched.directories[directory] {
          descriptor = known
        } else {
          let mask = IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_DELETE | IN_ONLYDIR
          descriptor = inotify_add_watch(watched.descriptor, directory, UInt32(mask))
          guard descriptor >= 0 else { return (false, made) }
          watched.directories[directory] = descriptor
        }
        watched.sweepIfDue()
        var files = watched.entries[descriptor, default: [:]]
        files[name, default: []].removeAll { $0.listener == nil }
        files[name, default: []].append(entry)
        watched.entries[descriptor] = files
        return (true, made)
      }
      if let sourceToStart {
        sourceToStart.setEventHandler { readEvents() }
        sourceToStart.resume()
      }
      return isWatched
    #else
      return false
    #endif
  }

  /// Called after this process made `file`'s directory, which may have been missing when
  /// ``watch(_:for:)`` was called.
  static func watchAgain(_ file: PreferencesFile, for listener: any FileChangeListener) {
    let isWatched = watched.withLock { $0.directories[file.directory] != nil }
    if !isWatched { watch(file, for: listener) }
  }

  #if canImport(Glibc)
    private static func readEvents() {
      let descriptor = watched.withLock { $0.descriptor }
      var changed: [Int32: Set<String>] = [:]
      /// The kernel dropped events: every file may have changed.
      var overflowed = false
      let size = 64 * 1024
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
      defer { buffer.deallocate() }
      while true {
        let count = read(descriptor, buffer, size)
        guard count > 0 else { break }
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
          let nameStart = offset + MemoryLayout<inotify_event>.size
          if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true }
          if event.len > 0 {
            let name = String(
              cString: buffer.advanced(by: nameStart).assumingMemoryBound(to: CChar.self))
            changed[event.wd, default: []].insert(name)
          }
          offset = nameStart + Int(event.len)
        }
      }
      let listeners = watched.withLock { watched -> [any FileChangeListener] in
        var found: [any FileChangeListener] = []
        if overflowed {
          for files in watched.entries.values {
            for entry in files.values.joined() {
              if let listener = entry.listener { found.append(listener) }
            }
          }
          return found
        }
        for (directory, names) in changed {
          for name in names {
            for entry in watched.entries[directory]?[name] ?? [] {
              if let listener = entry.listener { found.append(listener) }
            }
          }
        }
        return found
      }
      for listener in listeners { listener.fileMayHaveChanged() }
    }
  #endif
}
