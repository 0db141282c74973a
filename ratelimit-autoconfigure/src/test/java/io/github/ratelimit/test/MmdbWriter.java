package io.github.ratelimit.test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.CidrRange;

/**
 * Writes a small country database in MaxMind's format (MaxMind DB spec 2.0): an IPv6
 * binary search tree with 24-bit records, the 16-byte separator, a data section of maps
 * {@code {country: {iso_code: "XX"}}} (or {@code registered_country}), and the metadata
 * after the {@code \xAB\xCD\xEFMaxMind.com} marker. IPv4 networks sit in the IPv4 subtree
 * {@code ::a.b.c.d/96+n}, where readers look IPv4 addresses up.
 */
public final class MmdbWriter {

	private static final byte[] METADATA_MARKER = { (byte) 0xAB, (byte) 0xCD, (byte) 0xEF, 'M', 'a', 'x', 'M', 'i', 'n',
			'd', '.', 'c', 'o', 'm' };

	private final Node root = new Node();

	private final ByteArrayOutputStream data = new ByteArrayOutputStream();

	private final Map<String, Integer> offsets = new LinkedHashMap<>();

	/**
	 * Maps a network to a country.
	 * @param cidr an IPv4 or IPv6 range
	 * @param isoCode the country's code
	 * @return this writer
	 */
	public MmdbWriter country(String cidr, String isoCode) {
		return insert(cidr, "country", isoCode);
	}

	/**
	 * Maps a network to a registered country only (no {@code country} key).
	 * @param cidr an IPv4 or IPv6 range
	 * @param isoCode the country's code
	 * @return this writer
	 */
	public MmdbWriter registeredCountry(String cidr, String isoCode) {
		return insert(cidr, "registered_country", isoCode);
	}

	private MmdbWriter insert(String cidr, String key, String isoCode) {
		CidrRange range = CidrRange.parse(cidr);
		String text = range.toString();
		int prefix = Integer.parseInt(text.substring(text.indexOf('/') + 1));
		boolean ipv4 = text.indexOf(':') < 0;
		long high = range.firstHigh();
		// IPv4 networks go in the IPv4-compatible subtree (::a.b.c.d), not the mapped one
		long low = ipv4 ? range.firstLow() & 0xffffffffL : range.firstLow();
		int bits = ipv4 ? 96 + prefix : prefix;
		int offset = this.offsets.computeIfAbsent(key + ":" + isoCode, (k) -> writeRecord(key, isoCode));
		Node node = this.root;
		for (int i = 0; i < bits - 1; i++) {
			node = node.child(bit(high, low, i));
		}
		node.setData(bit(high, low, bits - 1), offset);
		return this;
	}

	/** The database's bytes. */
	public byte[] toBytes() {
		List<Node> nodes = new ArrayList<>();
		number(this.root, nodes);
		int nodeCount = nodes.size();
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (Node node : nodes) {
			writeRecord24(out, node.record(0, nodeCount));
			writeRecord24(out, node.record(1, nodeCount));
		}
		out.writeBytes(new byte[16]);
		out.writeBytes(this.data.toByteArray());
		out.writeBytes(METADATA_MARKER);
		Map<String, Object> metadata = new LinkedHashMap<>();
		metadata.put("binary_format_major_version", new Uint16(2));
		metadata.put("binary_format_minor_version", new Uint16(0));
		metadata.put("build_epoch", new Uint64(1_767_225_600L));
		metadata.put("database_type", "Test-Country");
		metadata.put("description", Map.of("en", "A country database written by the tests"));
		metadata.put("ip_version", new Uint16(6));
		metadata.put("languages", List.of("en"));
		metadata.put("node_count", new Uint32(nodeCount));
		metadata.put("record_size", new Uint16(24));
		encode(out, metadata);
		return out.toByteArray();
	}

	/**
	 * Writes the database to a file.
	 * @param file where
	 * @return the file
	 */
	public Path writeTo(Path file) {
		try {
			return Files.write(file, toBytes());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private int writeRecord(String key, String isoCode) {
		int offset = this.data.size();
		encode(this.data, Map.of(key, Map.of("iso_code", isoCode)));
		return offset;
	}

	private static int bit(long high, long low, int index) {
		return (int) ((index < 64) ? (high >>> (63 - index)) & 1 : (low >>> (127 - index)) & 1);
	}

	private static void number(Node node, List<Node> nodes) {
		node.number = nodes.size();
		nodes.add(node);
		for (Node child : node.children) {
			if (child != null) {
				number(child, nodes);
			}
		}
	}

	private static void writeRecord24(ByteArrayOutputStream out, long value) {
		out.write((int) (value >>> 16) & 0xff);
		out.write((int) (value >>> 8) & 0xff);
		out.write((int) value & 0xff);
	}

	private static void encode(ByteArrayOutputStream out, Object value) {
		if (value instanceof String text) {
			byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
			control(out, 2, bytes.length);
			out.writeBytes(bytes);
		}
		else if (value instanceof Map<?, ?> map) {
			control(out, 7, map.size());
			map.forEach((key, entry) -> {
				encode(out, key);
				encode(out, entry);
			});
		}
		else if (value instanceof List<?> list) {
			control(out, 11, list.size());
			list.forEach((item) -> encode(out, item));
		}
		else if (value instanceof Uint16 uint) {
			unsigned(out, 5, uint.value);
		}
		else if (value instanceof Uint32 uint) {
			unsigned(out, 6, uint.value);
		}
		else if (value instanceof Uint64 uint) {
			unsigned(out, 9, uint.value);
		}
		else {
			throw new IllegalArgumentException("Cannot encode " + value);
		}
	}

	private static void unsigned(ByteArrayOutputStream out, int type, long value) {
		int length = 0;
		for (long rest = value; rest != 0; rest >>>= 8) {
			length++;
		}
		control(out, type, length);
		for (int i = length - 1; i >= 0; i--) {
			out.write((int) (value >>> (8 * i)) & 0xff);
		}
	}

	// the control byte: three bits of type (0: extended, in the next byte as type - 7)
	// and five of size, with the size's extra bytes after
	private static void control(ByteArrayOutputStream out, int type, int size) {
		int sizeBits;
		byte[] extra;
		if (size < 29) {
			sizeBits = size;
			extra = new byte[0];
		}
		else if (size < 29 + 256) {
			sizeBits = 29;
			extra = new byte[] { (byte) (size - 29) };
		}
		else {
			int rest = size - 285;
			sizeBits = 30;
			extra = new byte[] { (byte) (rest >>> 8), (byte) rest };
		}
		if (type <= 7) {
			out.write((type << 5) | sizeBits);
		}
		else {
			out.write(sizeBits);
			out.write(type - 7);
		}
		out.writeBytes(extra);
	}

	private record Uint16(int value) {
	}

	private record Uint32(long value) {
	}

	private record Uint64(long value) {
	}

	private static final class Node {

		private final @Nullable Node[] children = new Node[2];

		private final int[] data = { -1, -1 };

		private int number;

		Node child(int bit) {
			if (this.data[bit] >= 0) {
				throw new IllegalStateException("A network inside another one is not supported here");
			}
			Node child = this.children[bit];
			if (child == null) {
				child = new Node();
				this.children[bit] = child;
			}
			return child;
		}

		void setData(int bit, int offset) {
			if (this.children[bit] != null) {
				throw new IllegalStateException("A network around another one is not supported here");
			}
			this.data[bit] = offset;
		}

		long record(int bit, int nodeCount) {
			Node child = this.children[bit];
			if (child != null) {
				return child.number;
			}
			// data: past the tree and the separator; nothing: the node count
			return (this.data[bit] >= 0) ? nodeCount + 16L + this.data[bit] : nodeCount;
		}

	}

}
