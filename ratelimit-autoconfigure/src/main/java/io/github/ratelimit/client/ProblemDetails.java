package io.github.ratelimit.client;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The members of an RFC 9457 problem body a caller can act on. The server side of this
 * starter writes them on every refusal:
 * {@code {"code": "rate_limit_exceeded", "scope": "org", "policy": "100;w=60",
 * "violated-policies": ["premium-org-export"], "request_id": "7f9c2b1e4d", "detail":
 * "..."}}.
 *
 * @param code the machine-readable reason ({@code rate_limit_exceeded},
 * {@code quota_exceeded}, ...), or {@code null}
 * @param scope whose limit refused ({@code user}, {@code org}, {@code ip}, ...), or
 * {@code null}
 * @param policy the {@code policy} member ({@code 100;w=60}), else the first of the IETF
 * {@code violated-policies}, or {@code null}
 * @param requestId the server's request id, to quote when asking its operators, or
 * {@code null}
 * @param detail the human-readable explanation, or {@code null}
 */
public record ProblemDetails(@Nullable String code, @Nullable String scope, @Nullable String policy,
		@Nullable String requestId, @Nullable String detail) {

	/** Larger bodies are not read: a problem body is a few hundred bytes. */
	public static final int MAX_BODY_BYTES = 64 * 1024;

	/**
	 * Reads a problem body; never throws.
	 * @param body the response body
	 * @param contentType the response's {@code Content-Type}, or {@code null} when it has
	 * none
	 * @return the members found, or {@code null} when the body is not JSON (by its
	 * content type or its text), is larger than {@value #MAX_BODY_BYTES} bytes, or has
	 * none of them
	 */
	public static @Nullable ProblemDetails parse(byte @Nullable [] body, @Nullable String contentType) {
		if (body == null || body.length == 0 || body.length > MAX_BODY_BYTES) {
			return null;
		}
		if (contentType != null && !contentType.toLowerCase(Locale.ROOT).contains("json")) {
			return null;
		}
		Map<String, Object> members = JsonMembers.read(new String(body, StandardCharsets.UTF_8));
		if (members == null) {
			return null;
		}
		String policy = string(members, "policy");
		if (policy == null && members.get("violated-policies") instanceof List<?> violated && !violated.isEmpty()) {
			policy = (String) violated.get(0);
		}
		String requestId = string(members, "request_id");
		if (requestId == null) {
			requestId = string(members, "requestId");
		}
		String detail = string(members, "detail");
		if (detail == null) {
			detail = string(members, "message");
		}
		ProblemDetails problem = new ProblemDetails(string(members, "code"), string(members, "scope"), policy,
				requestId, detail);
		boolean empty = problem.code == null && problem.scope == null && problem.policy == null
				&& problem.requestId == null && problem.detail == null;
		return empty ? null : problem;
	}

	private static @Nullable String string(Map<String, Object> members, String name) {
		return (members.get(name) instanceof String value) ? value : null;
	}

}
