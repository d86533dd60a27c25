import Foundation
import Testing
import ProcessSupport

/// `Scripts/lib/debian-packages` is the one list of Debian packages the scripts install. These tests
/// derive what building needs from the manifests and from dpkg — each system library target's
/// apt provider and the package that owns its pkg-config file, pkg-config itself, git and the
/// CA certificates for the dependencies — and check it against what `Scripts/demo` really
/// installs (run with `AQ_LIST_PACKAGES=1`, it prints its packages and stops): a package missing
/// from the demo fails, and so does one there for no reason found here. They need the build
/// packages installed (Scripts/test installs them), as the build itself does.
@Suite("Debian packages the scripts install")
struct DebianPackagesTests {
    static let root = Fixtures.packageRoot

    @Test func theDemoInstallsExactlyWhatBuildingNeeds() throws {
        let demo = try Set(packagesInstalled(by: "Scripts/demo"))
        let needed = try packagesBuildingNeeds()
        for (package, reason) in needed.sorted(by: { $0.key < $1.key }) where !demo.contains(package) {
            Issue.record("Scripts/demo does not install \(package), which \(reason) (add it to the build group of Scripts/lib/debian-packages)")
        }
        for package in demo.sorted() where needed[package] == nil {
            Issue.record("Scripts/demo installs \(package), which nothing in the manifests needs (take it out of the build group, or teach this test why it is needed)")
        }
        #expect(!demo.isEmpty)
    }

    /// Every system library target names its pkg-config module and its Debian provider, and the
    /// provider is in the groups the package's scripts install: the library package's in the
    /// demo's list, the benchmark package's in build and bench, the fuzz package's in build.
    @Test(arguments: [("", "Scripts/demo"), ("Benchmarks", "Benchmarks/run"), ("Fuzz", "Scripts/test")])
    func everySystemLibraryTargetIsInstalled(package: String, script: String) throws {
        let installed = try Set(packagesInstalled(by: script))
        for target in try systemLibraries(in: package) {
            #expect(!target.apt.isEmpty, "\(package)/Package.swift: \(target.name) names no .apt provider")
            for provider in target.apt {
                #expect(installed.contains(provider), "\(script) does not install \(provider), the provider of \(target.name)")
            }
        }
    }

    /// The scripts that build install at least what the demo does.
    @Test(arguments: ["Scripts/test", "Benchmarks/run"])
    func theOtherScriptsInstallWhatTheDemoDoes(script: String) throws {
        let demo = try packagesInstalled(by: "Scripts/demo")
        let installed = try Set(packagesInstalled(by: script))
        for package in demo where !installed.contains(package) {
            Issue.record("\(script) does not install \(package), which building needs")
        }
    }

    /// An unknown group is an error, not an empty list: a script that asks for one fails.
    @Test func anUnknownGroupFails() throws {
        let common = Self.root.appendingPathComponent("Scripts/lib/common.sh").path
        let r = try runProcess("/bin/bash", ["-c", "set -e; source '\(common)'; need_package_groups build nosuchgroup; echo reached"],
                               environment: ["AQ_LIST_PACKAGES": ""])
        #expect(r.status != 0)
        #expect(!r.out.contains("reached"))
        #expect(r.err.contains("no group 'nosuchgroup'"), "\(r.err)")
    }

    // MARK: What the manifests need

    /// Package name → why building needs it.
    func packagesBuildingNeeds() throws -> [String: String] {
        var needed: [String: String] = [:]
        let manifest = try dumpPackage("")
        let targets = try systemLibraries(in: "")
        for target in targets {
            for provider in target.apt { needed[provider] = "Package.swift names as the provider of \(target.name)" }
            guard let module = target.pkgConfig else {
                // Without pkgConfig the providers must hold what the module map uses.
                try checkProvidersHoldTheFiles(of: target, in: "")
                continue
            }
            let dir = try runProcess("/usr/bin/env", ["pkg-config", "--variable=pcfiledir", module])
            try #require(dir.status == 0, "pkg-config finds no \(module) (\(target.name)): \(dir.err)")
            let file = "\(dir.out.trimmingCharacters(in: .whitespacesAndNewlines))/\(module).pc"
            let owner = try #require(try owner(of: file), "no Debian package owns \(file)")
            needed[owner] = "owns \(file), \(target.name)'s pkg-config module"
        }
        for link in try systemHeaderLinks(under: Self.root.appendingPathComponent("Sources")) {
            let owner = try #require(try owner(of: link.destination), "no Debian package owns \(link.destination), where \(link.path) points")
            needed[owner] = "owns \(link.destination), where \(link.path) points"
        }
        let arch = try runProcess("/usr/bin/uname", ["-m"]).out.trimmingCharacters(in: .whitespacesAndNewlines) + "-linux-gnu"
        for (target, (header, package)) in Self.dlopenedLibraries {
            let candidates = ["/usr/include/\(header)", "/usr/include/\(arch)/\(header)"]
            let file = try #require(candidates.first { FileManager.default.fileExists(atPath: $0) }, "\(target)'s <\(header)> is in none of \(candidates)")
            #expect(try owner(of: file) == package, "\(file), which \(target) compiles against, is not \(package)'s")
            needed[package] = "owns \(file), the header \(target) compiles against (it opens the library with dlopen)"
        }
        if targets.contains(where: { $0.pkgConfig != nil }) {
            let tool = try #require(try installedFile(of: "pkg-config"), "no Debian package installed pkg-config")
            needed[try #require(try owner(of: tool), "no Debian package owns \(tool)")] = "owns \(tool), with which SwiftPM reads the pkgConfig modules"
        }
        let urls = remoteURLs(in: manifest)
        if !urls.isEmpty {
            let git = try #require(try installedFile(of: "git"), "no Debian package installed git")
            needed[try #require(try owner(of: git), "no Debian package owns \(git)")] = "owns \(git), with which SwiftPM fetches \(urls[0])"
        }
        if urls.contains(where: { $0.hasPrefix("https:") }) {
            let tool = "/usr/sbin/update-ca-certificates"
            needed[try #require(try owner(of: tool), "no Debian package owns \(tool)")] = "keeps the CA certificates git checks \(urls[0]) with"
        }
        return needed
    }

    /// C targets that compile against a library's headers (found on the compiler's default
    /// paths) but open the library with dlopen instead of linking it: target → (a header it
    /// includes, the Debian package that installs it).
    static let dlopenedLibraries: [String: (header: String, package: String)] = [
        "CAVCodec": ("libavcodec/avcodec.h", "libavcodec-dev"),
    ]

    /// A symbolic link under `Sources/*/include` to a system header folder or file.
    struct HeaderLink {
        var path: String
        var destination: String
    }

    /// The symbolic links in the `include` folders of the targets under `sources` (their top
    /// level: C targets without pkg-config link to system headers so) that point into
    /// /usr/include.
    func systemHeaderLinks(under sources: URL) throws -> [HeaderLink] {
        let fm = FileManager.default
        var links: [HeaderLink] = []
        for target in try fm.contentsOfDirectory(atPath: sources.path).sorted() {
            let include = sources.appendingPathComponent(target).appendingPathComponent("include")
            guard let entries = try? fm.contentsOfDirectory(atPath: include.path) else { continue }
            for entry in entries.sorted() {
                let path = include.appendingPathComponent(entry).path
                guard let destination = try? fm.destinationOfSymbolicLink(atPath: path) else { continue }
                let absolute = destination.hasPrefix("/") ? destination : include.appendingPathComponent(destination).standardized.path
                if absolute.hasPrefix("/usr/include/") { links.append(HeaderLink(path: "Sources/\(target)/include/\(entry)", destination: absolute)) }
            }
        }
        return links
    }

    /// The scan finds a link into /usr/include (and its owner), and ignores other links and files.
    @Test func headerLinksIntoUsrIncludeAreFound() throws {
        let fm = FileManager.default
        let sources = fm.temporaryDirectory.appendingPathComponent("aq-links-\(getpid())-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: sources) }
        let include = sources.appendingPathComponent("CThing/include")
        try fm.createDirectory(at: include, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: include.appendingPathComponent("stdio.h").path, withDestinationPath: "/usr/include/stdio.h")
        try fm.createSymbolicLink(atPath: include.appendingPathComponent("elsewhere").path, withDestinationPath: "/tmp")
        try Data().write(to: include.appendingPathComponent("thing.h"))
        let links = try systemHeaderLinks(under: sources)
        #expect(links.map(\.path) == ["Sources/CThing/include/stdio.h"])
        #expect(links.map(\.destination) == ["/usr/include/stdio.h"])
        #expect(try owner(of: "/usr/include/stdio.h") == "libc6-dev")
        // The package's own links: CPipeWire's two.
        let own = try systemHeaderLinks(under: Self.root.appendingPathComponent("Sources"))
        #expect(own.map(\.destination).contains("/usr/include/pipewire-0.3/pipewire"))
    }

    struct SystemLibrary {
        var name: String
        var path: String?
        var pkgConfig: String?
        var apt: [String]
    }

    /// A system library target without pkgConfig (its module's flags would warn in dependent
    /// packages) gets no -I and no -L: every header its module map's header includes with `<…>`
    /// must be in /usr/include, and every library it links in the linker's directories, each
    /// file installed by one of its .apt providers.
    func checkProvidersHoldTheFiles(of target: SystemLibrary, in package: String) throws {
        let directory = Self.root.appendingPathComponent(package).appendingPathComponent(target.path ?? "Sources/\(target.name)")
        let moduleMap = try String(contentsOf: directory.appendingPathComponent("module.modulemap"), encoding: .utf8)
        func quoted(after keyword: String, in text: String) -> [String] {
            text.split(separator: "\n").compactMap { line in
                let words = line.trimmingCharacters(in: .whitespaces)
                guard words.hasPrefix(keyword + " \""), let end = words.dropFirst(keyword.count + 2).firstIndex(of: "\"") else { return nil }
                return String(words[words.index(words.startIndex, offsetBy: keyword.count + 2)..<end])
            }
        }
        let headers = quoted(after: "header", in: moduleMap)
        let libraries = quoted(after: "link", in: moduleMap)
        #expect(!headers.isEmpty && !libraries.isEmpty, "\(target.name)'s module map names no header or no library")
        // Debian's multiarch triplet (x86_64-linux-gnu, aarch64-linux-gnu), without a compiler.
        let arch = try runProcess("/usr/bin/uname", ["-m"]).out.trimmingCharacters(in: .whitespacesAndNewlines) + "-linux-gnu"
        var files: [(what: String, candidates: [String])] = []
        for header in headers {
            let text = try String(contentsOf: directory.appendingPathComponent(header), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("#include <") {
                let name = String(line.dropFirst("#include <".count).prefix { $0 != ">" })
                files.append(("<\(name)>", ["/usr/include/\(name)", "/usr/include/\(arch)/\(name)"]))
            }
        }
        for library in libraries {
            files.append(("-l\(library)", ["/usr/lib/\(arch)/lib\(library).so", "/usr/lib/lib\(library).so"]))
        }
        #expect(files.count > libraries.count, "\(target.name)'s header includes no system header")
        for (what, candidates) in files {
            guard let file = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                Issue.record("\(target.name) has no pkgConfig, and \(what) is in none of \(candidates)")
                continue
            }
            let owner = try owner(of: file)
            #expect(owner.map(target.apt.contains) == true,
                    "\(file) (\(target.name)'s \(what)) is installed by \(owner ?? "no package"), not by its providers \(target.apt)")
        }
    }

    /// The system library targets of the manifest in `package` (a folder of the repository; ""
    /// for the root).
    func systemLibraries(in package: String) throws -> [SystemLibrary] {
        let manifest = try dumpPackage(package)
        let targets = try #require(manifest["targets"] as? [[String: Any]], "no targets in \(package)/Package.swift")
        return targets.filter { $0["type"] as? String == "system" }.map { target in
            let providers = target["providers"] as? [[String: Any]] ?? []
            let apt = providers.compactMap { $0["apt"] as? [[String]] }.flatMap { $0.flatMap { $0 } }
            return SystemLibrary(
                name: target["name"] as? String ?? "?", path: target["path"] as? String,
                pkgConfig: target["pkgConfig"] as? String, apt: apt)
        }
    }

    /// `swift package dump-package` of `package`, with a scratch folder of its own (the suite's
    /// build holds the package's).
    func dumpPackage(_ package: String) throws -> [String: Any] {
        let path = Self.root.appendingPathComponent(package).path
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("aq-dump-\(getpid())-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let r = try runProcess(swift, ["package", "--package-path", path, "--scratch-path", scratch, "dump-package"])
        try #require(r.status == 0, "swift package dump-package failed for \(path): \(r.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
    }

    /// The toolchain's swift: /opt/swift's, as the scripts prefer it, else the one on PATH.
    var swift: String {
        let opt = "/opt/swift/usr/bin/swift"
        if FileManager.default.isExecutableFile(atPath: opt) { return opt }
        return ((try? runProcess("/bin/bash", ["-c", "command -v swift"]).out) ?? "swift").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every `urlString` of the manifest's dependencies.
    func remoteURLs(in manifest: [String: Any]) -> [String] {
        func walk(_ value: Any) -> [String] {
            if let dictionary = value as? [String: Any] {
                return dictionary.flatMap { key, value in key == "urlString" ? [value as? String].compactMap { $0 } : walk(value) }
            }
            if let array = value as? [Any] { return array.flatMap(walk) }
            return []
        }
        return walk(manifest["dependencies"] ?? [])
    }

    // MARK: What the scripts install

    /// The packages `script` installs: run with AQ_LIST_PACKAGES=1, it prints them at its first
    /// install and stops.
    func packagesInstalled(by script: String) throws -> [String] {
        let path = Self.root.appendingPathComponent(script).path
        let r = try runProcess("/bin/bash", [path], environment: ["AQ_LIST_PACKAGES": "1"])
        try #require(r.status == 0, "\(script) with AQ_LIST_PACKAGES=1 failed (\(r.status)): \(r.err)")
        let packages = r.out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        try #require(!packages.isEmpty, "\(script) lists no package")
        return packages
    }

    /// The Debian package that installed `path` (dpkg-query -S), without its architecture.
    func owner(of path: String) throws -> String? {
        let r = try runProcess("/usr/bin/dpkg-query", ["-S", path])
        guard r.status == 0 else { return nil }
        for line in r.out.split(separator: "\n") where !line.hasPrefix("diversion ") {
            guard let colon = line.range(of: ": ") else { continue }
            let owners = line[..<colon.lowerBound].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if owners.count == 1, let name = owners[0].split(separator: ":").first { return String(name) }
        }
        return nil
    }

    /// The file `command` runs from, as dpkg knows it: the path PATH gives, else with symbolic
    /// links resolved, else under /usr (Debian's /bin is /usr/bin).
    func installedFile(of command: String) throws -> String? {
        let r = try runProcess("/bin/bash", ["-c", "command -v \(command)"])
        guard r.status == 0 else { return nil }
        let path = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        for candidate in [path, resolved, "/usr" + path, "/usr" + resolved] where try owner(of: candidate) != nil {
            return candidate
        }
        return nil
    }
}
