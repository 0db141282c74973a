package io.github.ratelimit.identity;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.jspecify.annotations.Nullable;

/**
 * A client address as 128 bits, for lookups in address tables (reputation lists, a
 * country database). IPv4 addresses are held in their IPv4-mapped form, as
 * {@link CidrRange} holds them, so one table serves both families.
 *
 * @param high the upper 64 bits
 * @param low the lower 64 bits
 */
public record AddressBits(long high, long low) {

	/**
	 * Parses an address literal, as the identity layer resolves it (brackets, a zone id
	 * or a port are allowed and ignored).
	 * @param address the literal
	 * @return its bits, or {@code null} when it is not an address
	 */
	public static @Nullable AddressBits parse(String address) {
		IpAddress parsed = IpLiterals.parseNode(address, 0, address.length());
		return (parsed != null) ? new AddressBits(parsed.high(), parsed.low()) : null;
	}

	/** Whether this is an IPv4 (or IPv4-mapped) address. */
	public boolean ipv4() {
		return new IpAddress(this.high, this.low).isIpv4();
	}

	/**
	 * The address as an {@link InetAddress}, built from its bytes: no name is ever looked
	 * up.
	 */
	public InetAddress toInetAddress() {
		byte[] bytes;
		if (ipv4()) {
			bytes = new byte[4];
			putBytes(bytes, 0, this.low, 4);
		}
		else {
			bytes = new byte[16];
			putBytes(bytes, 0, this.high, 8);
			putBytes(bytes, 8, this.low, 8);
		}
		try {
			return InetAddress.getByAddress(bytes);
		}
		catch (UnknownHostException ex) {
			// only thrown for a length other than 4 or 16
			throw new IllegalStateException(ex);
		}
	}

	/** Compares two addresses as unsigned 128-bit numbers. */
	public static int compare(long highA, long lowA, long highB, long lowB) {
		int high = Long.compareUnsigned(highA, highB);
		return (high != 0) ? high : Long.compareUnsigned(lowA, lowB);
	}

	private static void putBytes(byte[] bytes, int offset, long value, int count) {
		for (int i = 0; i < count; i++) {
			bytes[offset + i] = (byte) (value >>> (8 * (count - 1 - i)));
		}
	}

	@Override
	public String toString() {
		return new IpAddress(this.high, this.low).toString();
	}

}
