import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One suite's XML property-list file, read and written the way a crash cannot damage:
/// a temporary file in the same directory, `fsync`, `rename` over the old file, `fsync`
/// of the directory. The live file is never truncated.
struct PreferencesFile: Sendable {
  let directory: String
  let path: String
  var lockPath: String { path + ".lock" }

  /// What reading the file found.
  enum Contents {
    case missing
    case values([String: Any])
    /// Unreadable; the file was moved to `backup` (or could not be, when `nil`).
    case damaged(reason: String, backup: String?)
  }

  /// An identity that changes whenever another process replaces or rewrites the file.
  struct Identity: Equatable, Sendable {
    let inode: UInt64
    let modified: Int
    let size: Int
  }

  init(directory: String, suite: String) {
    self.directory = directory
    self.path = directory + "/" + suite + ".plist"
  }

  func identity() -> Identity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Identity(
      inode: UInt64(info.st_ino),
      modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
      size: Int(info.st_size))
  }

  /// Reads the file; a damaged file is moved aside to a dated backup next to it.
  func read() -> Contents {
    guard let data = FileManager.default.contents(atPath: path) else {
      return FileManager.default.fileExists(atPath: path)
        ? .damaged(reason: "the file cannot be read", backup: nil) : .missing
    }
    let reason: String
    do {
      let object = try PropertyListSerialization.propertyList(from: data, format: nil)
      if let values = PropertyListObject.dictionary(object) { return .values(values) }
      reason = "the file holds a \(type(of: object)), not a dictionary"
    } catch {
      reason = data.isEmpty ? "the file is empty" : "the file is not a property list (\(error))"
    }
    let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "-")
    let backup =
      path + ".damaged-" + stamp + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let moved = rename(path, backup) == 0
    return .damaged(reason: reason, backup: moved ? backup : nil)
  }

  /// Writes `values` durably. Throws a message on failure; the old file stays intact.
  func write(_ values: [String: Any]) throws(DefaultsError) {
    let data: Data
    if let written = PropertyListXMLWriter.data(for: values) {
      data = written
    } else {
      do {
        data = try PropertyListSerialization.data(
          fromPropertyList: values, format: .xml, options: 0)
      } catch {
        throw DefaultsError(.failedSave, "the values could not be serialised: \(error)")
      }
    }
    let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw DefaultsError(
        .failedSave, "cannot create a file in \(directory): \(String(cString: strerror(errno)))")
    }
    var failure: String?
    do {
      try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
    } catch {
      failure = "\(error)"
    }
    if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
    close(descriptor)
    if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
    if let failure {
      unlink(temporary)
      throw DefaultsError(.failedSave, "cannot write \(path): \(failure)")
    }
    let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }

  /// Makes the preferences directory (mode 0700) when its parent exists.
  func prepareDirectory() throws(DefaultsError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
      if isDirectory.boolValue { return }
      throw DefaultsError(.failedSave, "\(directory) is not a directory")
    }
    if mkdir(directory, 0o700) != 0 {
      throw DefaultsError(
        .failedSave,
        "cannot create the preferences directory \(directory): \(String(cString: strerror(errno)))")
    }
  }
}
