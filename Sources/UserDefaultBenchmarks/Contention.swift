import Foundation
import UserDefault

/// `update(_:_:)` from several processes on one store: each child of the benchmark (this
/// executable, run again with `--update-child`) opens the store, says it is ready, waits
/// for the word, runs its updates and exits; the rate is every update over the time from
/// the word to the last exit.
enum Contention {
  static let childFlag = "--update-child"

  /// The child's side: `--update-child <directory> <suite> <count>`. Never returns.
  static func runChild(_ arguments: [String]) -> Never {
    guard arguments.count == 5, let count = Int(arguments[4]),
      let store = try? PreferencesStore(suiteName: arguments[3], directory: arguments[2])
    else { exit(2) }
    let counter = UserDefaults.Key<Int>("counter", default: 0)
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    _ = readLine()
    for _ in 0..<count {
      guard (try? store.update(counter) { $0 += 1 }) != nil else { exit(1) }
    }
    exit(0)
  }

  /// Updates per second of `processes` processes making `count` updates each on one
  /// store in `directory`, and the count the file holds afterwards.
  static func updatesPerSecond(processes: Int, count: Int, directory: String) throws -> (
    rate: Double, final: Int
  ) {
    #if os(macOS) || os(Linux) || os(Windows)
      let suite = "contention-\(processes)-\(UUID().uuidString)"
      var children: [(process: Process, input: Pipe, output: Pipe)] = []
      for _ in 0..<processes {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL
        child.arguments = [childFlag, directory, suite, String(count)]
        let (input, output) = (Pipe(), Pipe())
        (child.standardInput, child.standardOutput) = (input, output)
        try child.run()
        children.append((child, input, output))
      }
      for child in children {
        var said = ""
        while !said.contains("ready") {
          let chunk = child.output.fileHandleForReading.availableData
          guard !chunk.isEmpty else { break }
          said += String(decoding: chunk, as: UTF8.self)
        }
      }
      let start = ContinuousClock.now
      for child in children { child.input.fileHandleForWriting.write(Data("go\n".utf8)) }
      for child in children { child.process.waitUntilExit() }
      let elapsed = ContinuousClock.now - start
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      let store = try PreferencesStore(suiteName: suite, directory: directory)
      let final = store[UserDefaults.Key<Int>("counter", default: 0)]
      return (Double(processes * count) / seconds, final)
    #else
      return (0, 0)
    #endif
  }
}
