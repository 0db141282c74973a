package io.github.ratelimit.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;

import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;

/**
 * The refusals of the limiter as OpenAPI responses: the headers the configured styles
 * write ({@link RateLimitHeaders#headerNames()}) and {@code Retry-After}, and the body
 * the {@link RejectionBodyWriter} writes (the problem+json schema of
 * {@link ProblemDetailsBodyWriter}, or the content type of one of the application's own).
 * Headers and the schema are components, referenced by each operation.
 */
final class RateLimitResponses {

	/** The name of the problem schema among the components. */
	static final String PROBLEM_SCHEMA = "RateLimitProblem";

	private static final String HEADER_REF = "#/components/headers/";

	private final RateLimitHeaders headers;

	private final String contentType;

	private final boolean problemDetails;

	RateLimitResponses(RateLimitHeaders headers, RejectionBodyWriter bodyWriter) {
		this.headers = headers;
		this.contentType = bodyWriter.contentType();
		this.problemDetails = bodyWriter instanceof ProblemDetailsBodyWriter;
	}

	/**
	 * Adds the header definitions and the problem schema to the document's components,
	 * leaving any of the same name the application defines.
	 */
	void register(Components components) {
		for (String name : this.headers.headerNames()) {
			if (components.getHeaders() == null || !components.getHeaders().containsKey(name)) {
				components.addHeaders(name, header(name));
			}
		}
		if (this.problemDetails
				&& (components.getSchemas() == null || !components.getSchemas().containsKey(PROBLEM_SCHEMA))) {
			components.addSchemas(PROBLEM_SCHEMA, problemSchema());
		}
	}

	/** The rate-limit headers of a response the limits applied to (not a refusal). */
	Map<String, Header> limitHeaders() {
		Map<String, Header> headers = new LinkedHashMap<>();
		for (String name : this.headers.headerNames()) {
			if (!name.equals(RateLimitHeaders.RETRY_AFTER)) {
				headers.put(name, new Header().$ref(HEADER_REF + name));
			}
		}
		return headers;
	}

	/** A 429: every rate-limit header, {@code Retry-After} and the body. */
	ApiResponse tooManyRequests() {
		ApiResponse response = refusal("Too Many Requests: a limit of this operation ran out (code "
				+ "rate_limit_exceeded, quota_exceeded, fixed_window_limit_exceeded, sliding_window_limit_exceeded, "
				+ "steady_rate_exceeded or concurrency_limit_exceeded). Retry after Retry-After seconds.");
		limitHeaders().forEach(response::addHeaderObject);
		return response.addHeaderObject(RateLimitHeaders.RETRY_AFTER, retryAfter());
	}

	/**
	 * A 403: a tier that may not call the operation, a deny rule or a ban.
	 * @param banned whether a ban can be the reason (its refusal carries
	 * {@code Retry-After})
	 */
	ApiResponse forbidden(boolean banned) {
		ApiResponse response = refusal("Forbidden: the caller's tier may not call this operation, or a request "
				+ "costs more than its limit can ever hold (code tier_not_allowed), a deny rule refuses the caller "
				+ "(access_denied), the country rules or a reputation list refuse its address (geo_blocked, "
				+ "reputation_denied), or the caller is banned for repeatedly exceeding its limits (banned).");
		return banned ? response.addHeaderObject(RateLimitHeaders.RETRY_AFTER, retryAfter()) : response;
	}

	/** A 503: the store could not decide and the failure mode is closed. */
	ApiResponse unavailable() {
		return refusal("Service Unavailable: the rate limiter could not check the request "
				+ "(code rate_limiter_unavailable). Retry after Retry-After seconds.")
			.addHeaderObject(RateLimitHeaders.RETRY_AFTER, retryAfter());
	}

	private ApiResponse refusal(String description) {
		Schema<?> schema = this.problemDetails ? new Schema<>().$ref("#/components/schemas/" + PROBLEM_SCHEMA)
				: new Schema<>();
		return new ApiResponse().description(description)
			.content(new Content().addMediaType(this.contentType, new MediaType().schema(schema)));
	}

	private static Header retryAfter() {
		return new Header().$ref(HEADER_REF + RateLimitHeaders.RETRY_AFTER);
	}

	private Header header(String name) {
		Set<HeaderStyle> styles = this.headers.styles();
		boolean ietf = styles.contains(HeaderStyle.IETF);
		return switch (name) {
			case RateLimitHeaders.RATE_LIMIT -> string(ietf
					? "The limit closest to running out, or the one that refused: \"premium-user-auth\";r=0;t=23 "
							+ "(r requests remaining, t seconds until a request can pass); a structured-field List"
					: "The binding limit: limit=100, remaining=0, reset=23 (seconds until a request can pass)");
			case RateLimitHeaders.RATE_LIMIT_POLICY -> string(ietf
					? "Every limit that applied: \"premium-user-auth\";q=100;w=60 (a quota of q per w seconds); "
							+ "a structured-field List"
					: "The binding limit: 100;w=60 (a quota of 100 per 60 seconds)");
			case RateLimitHeaders.RATE_LIMIT_LIMIT, RateLimitHeaders.X_RATE_LIMIT_LIMIT ->
				integer("The quota of the binding limit");
			case RateLimitHeaders.RATE_LIMIT_REMAINING, RateLimitHeaders.X_RATE_LIMIT_REMAINING ->
				integer("What is left of the binding limit");
			case RateLimitHeaders.RATE_LIMIT_RESET, RateLimitHeaders.X_RATE_LIMIT_RESET ->
				integer("Seconds until a request can pass again (a delay, not an epoch)");
			case RateLimitHeaders.RATE_LIMIT_WARNING -> string("Limits this response warns about: "
					+ "\"premium-org-all\";code=\"near-limit\";r=1800;t=604800 past a soft limit, code=\"over-limit\" "
					+ "when a limit in warn mode would have refused; a structured-field List");
			case RateLimitHeaders.RETRY_AFTER -> integer("Seconds to wait before retrying, at least 1");
			default -> string(name);
		};
	}

	private static Header string(String description) {
		return new Header().description(description).schema(typed("string"));
	}

	private static Header integer(String description) {
		return new Header().description(description).schema(typed("integer"));
	}

	/**
	 * A schema of one type, as OpenAPI 3.0 ({@code type}) and 3.1 ({@code types}) read
	 * it.
	 */
	private static Schema<Object> typed(String type) {
		Schema<Object> schema = new Schema<>();
		schema.setType(type);
		schema.addType(type);
		return schema;
	}

	private static Schema<Object> typed(String type, String description) {
		Schema<Object> schema = typed(type);
		schema.setDescription(description);
		return schema;
	}

	/** The members {@link ProblemDetailsBodyWriter} writes (docs/responses.md). */
	private static Schema<Object> problemSchema() {
		Schema<Object> schema = typed("object", "An RFC 9457 problem: which limit refused the request, for whom, "
				+ "and when to retry. Members after code appear where they apply.");
		Map<String, Schema> properties = new LinkedHashMap<>();
		properties.put("type", typed("string", "The problem type: the IETF draft's quota-exceeded type on a 429, "
				+ ProblemDetailsBodyWriter.BLANK_TYPE + " otherwise"));
		properties.put("title", typed("string", "The status's reason phrase"));
		properties.put("status", typed("integer", "The status code: 429, 403 or 503"));
		properties.put("detail", typed("string", "What happened, in words"));
		Schema<Object> violated = typed("array", "The policies that refused (429)");
		violated.setItems(typed("string"));
		properties.put("violated-policies", violated);
		Schema<Object> code = typed("string", "What kind of refusal");
		code.setEnum(List.of("rate_limit_exceeded", "quota_exceeded", "fixed_window_limit_exceeded",
				"sliding_window_limit_exceeded", "steady_rate_exceeded", "concurrency_limit_exceeded",
				"tier_not_allowed", "access_denied", "geo_blocked", "reputation_denied", "banned",
				"rate_limiter_unavailable"));
		properties.put("code", code);
		properties.put("scope", typed("string", "Whose budget ran out: org, user, token or ip"));
		properties.put("group", typed("string", "The endpoint group"));
		properties.put("tier", typed("string", "The caller's tier"));
		properties.put("limit", typed("integer", "The quota of the limit that refused (429)"));
		properties.put("remaining", typed("integer", "What is left of it (429)"));
		properties.put("retry_after", typed("integer", "Seconds until the request can pass, as Retry-After"));
		Schema<Object> resetAt = typed("string", "When the request can pass again");
		resetAt.setFormat("date-time");
		properties.put("reset_at", resetAt);
		properties.put("policy", typed("string", "The limit that refused: 100;w=60 (429)"));
		properties.put("request_id", typed("string", "The request's id, as X-Request-Id"));
		schema.setProperties(properties);
		schema.setRequired(List.of("type", "title", "status", "detail", "code", "request_id"));
		return schema;
	}

}
