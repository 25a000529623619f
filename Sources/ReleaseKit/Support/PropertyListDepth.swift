import Foundation

/// How deep a property list nests, found without recursing, so that one nested deeper than ``maximum`` is refused
/// before Foundation's parser (which recurses, in C, once per level) reads it.
package enum PropertyListDepth {
    /// How deep dictionaries and arrays may nest. Real Info.plists, profiles and export options nest fewer than 6
    /// levels; Foundation's parser takes about 0.4 KiB of stack per level, so 64 levels are far from the end of
    /// Darwin's 512 KiB secondary-thread stacks.
    package static let maximum = 64

    /// Where `bytes` first nests deeper than ``maximum``: the line for an XML or OpenStep-style text plist, `1` for a
    /// binary one (it has no lines, and a reference cycle counts as too deep); `nil` when it does not.
    package static func lineExceedingMaximum(_ bytes: [UInt8]) -> Int? {
        bytes.starts(with: Array("bplist00".utf8)) ? (binaryExceedsMaximum(bytes) ? 1 : nil) : xmlLineExceedingMaximum(bytes)
    }

    /// The value of `data` when it is a property list within ``maximum`` levels, else `nil`.
    package static func propertyList(from data: Data) -> Any? {
        guard lineExceedingMaximum(Array(data)) == nil else { return nil }
        return try? PropertyListSerialization.propertyList(from: data, format: nil)
    }

    /// The line where `<dict>`/`<array>` elements first nest deeper than ``maximum``, if they do.
    static func xmlLineExceedingMaximum(_ bytes: [UInt8]) -> Int? {
        var depth = 0
        var line = 1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            index += 1
            guard byte == UInt8(ascii: "<"), index < bytes.count else { continue }
            let closing = bytes[index] == UInt8(ascii: "/")
            let nameStart = closing ? index + 1 : index
            var nameEnd = nameStart
            while nameEnd < bytes.count, nameEnd - nameStart < 6,
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[nameEnd])
            { nameEnd += 1 }
            let name = bytes[nameStart..<nameEnd]
            guard name.elementsEqual("dict".utf8) || name.elementsEqual("array".utf8) else { continue }
            var end = nameEnd
            while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
            let selfClosing = end > nameEnd && bytes[end - 1] == UInt8(ascii: "/")
            if closing {
                depth -= 1
            } else if !selfClosing {
                depth += 1
                if depth > maximum { return line }
            }
        }
        return nil
    }

    /// Whether a binary plist (`bplist00`: objects, an offset table and a 32-byte trailer; CoreFoundation's
    /// CFBinaryPList.c) nests deeper than ``maximum``. A file too damaged to follow is left to Foundation to refuse.
    static func binaryExceedsMaximum(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 + 32 else { return false }
        let trailer = bytes.count - 32
        func integer(at position: Int, size: Int) -> Int? {
            guard size >= 1, size <= 8, position >= 0, position + size <= bytes.count else { return nil }
            var value: UInt64 = 0
            for index in position..<(position + size) { value = value << 8 | UInt64(bytes[index]) }
            return value > UInt64(Int.max) ? nil : Int(value)
        }
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        guard let count = integer(at: trailer + 8, size: 8), let top = integer(at: trailer + 16, size: 8),
            let table = integer(at: trailer + 24, size: 8), offsetSize >= 1, offsetSize <= 8, referenceSize >= 1,
            referenceSize <= 8, count <= bytes.count, top < count, table <= trailer,
            count * offsetSize <= trailer - table
        else { return false }
        /// The objects an array, set or dictionary refers to (a dictionary's keys and values); `nil` for any other object.
        func children(of object: Int) -> [Int]? {
            guard let offset = integer(at: table + object * offsetSize, size: offsetSize), offset < trailer else { return nil }
            let marker = bytes[offset]
            guard [0xA, 0xB, 0xC, 0xD].contains(marker >> 4) else { return nil }
            var items = Int(marker & 0x0F)
            var position = offset + 1
            if items == 0x0F {
                guard position < trailer, bytes[position] >> 4 == 1 else { return [] }
                let size = 1 << Int(bytes[position] & 0x0F)
                guard let length = integer(at: position + 1, size: size) else { return [] }
                items = length
                position += 1 + size
            }
            let references = marker >> 4 == 0xD ? 2 * items : items
            guard references <= (trailer - position) / referenceSize else { return [] }
            return (0..<references).compactMap { integer(at: position + $0 * referenceSize, size: referenceSize) }.filter { $0 < count }
        }
        // Depth-first with an explicit stack; an object is walked again only when reached deeper than before, so
        // shared objects cost at most `maximum` walks each and a cycle ends by passing the maximum.
        var deepest = [Int](repeating: 0, count: count)
        var stack = [(object: top, depth: 1)]
        while let (object, depth) = stack.popLast() {
            guard depth > deepest[object] else { continue }
            deepest[object] = depth
            guard let next = children(of: object) else { continue }
            if depth > maximum { return true }
            for child in next { stack.append((child, depth + 1)) }
        }
        return false
    }
}
