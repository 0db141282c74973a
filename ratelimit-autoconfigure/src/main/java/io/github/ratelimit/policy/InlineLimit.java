package io.github.ratelimit.policy;

import org.jspecify.annotations.Nullable;

/**
 * A limit declared on a handler with {@code @RateLimited(limit = ...)}: a budget of that
 * handler's own, counted per caller (the verified user, else the client address, unless
 * {@code per} names whom) on top of the tier's limits.
 *
 * @param handler a readable id of the handler ({@code ExportController.export}), plain
 * characters only
 * @param limit the limit
 * @param counts which of the handler's responses count against it
 * ({@code @RateLimited(count = ...)})
 * @param per whom the limit counts per ({@code @RateLimited(per = ...)}): a dimension
 * ({@code user}, {@code org}, {@code token}, {@code ip}, {@code service}) or the name of
 * a configured key; empty for the verified user, else the client address
 */
public record InlineLimit(String handler, Limit limit, CountedResponses counts, String per) {

	/**
	 * The longest handler id kept; longer ones are cut (they name a bucket, they need not
	 * be complete).
	 */
	private static final int MAX_HANDLER_LENGTH = 64;

	public InlineLimit {
		handler = plain(handler);
	}

	/** A limit that counts every response, per user else per client address. */
	public InlineLimit(String handler, Limit limit) {
		this(handler, limit, CountedResponses.ALL);
	}

	/** A limit per user else per client address. */
	public InlineLimit(String handler, Limit limit, CountedResponses counts) {
		this(handler, limit, counts, "");
	}

	/**
	 * The dimension {@link #per()} names, {@link Dimension#KEY} for a key's name, or
	 * {@code null} when it is empty (the verified user, else the client address).
	 */
	public @Nullable Dimension perDimension() {
		if (this.per.isEmpty()) {
			return null;
		}
		if (Dimension.SERVICE.key().equals(this.per)) {
			return Dimension.SERVICE;
		}
		Dimension dimension = Dimension.fromKey(this.per);
		return (dimension != null) ? dimension : Dimension.KEY;
	}

	private static String plain(String handler) {
		StringBuilder plain = new StringBuilder(Math.min(handler.length(), MAX_HANDLER_LENGTH));
		for (int i = 0; i < handler.length() && plain.length() < MAX_HANDLER_LENGTH; i++) {
			char c = handler.charAt(i);
			boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
					|| c == '_' || c == '-';
			plain.append(allowed ? c : '_');
		}
		return plain.isEmpty() ? "handler" : plain.toString();
	}

}
