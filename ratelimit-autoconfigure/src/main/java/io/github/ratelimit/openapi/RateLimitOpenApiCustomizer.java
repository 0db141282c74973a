package io.github.ratelimit.openapi;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.util.Assert;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.web.EndpointClassifier;

/**
 * Documents the limits of every operation of a springdoc OpenAPI document (the default
 * one and every group): its {@code 429} (and {@code 403}, {@code 503} where they can
 * occur) with the rate-limit headers and the problem body, the rate-limit headers on its
 * successful responses, an {@code x-ratelimit} extension with each tier's limits, and the
 * same as a table in its description. An operation is classified by its method and path
 * template with the classifier the filter uses, and its limits read from the policy table
 * in force, so the document says what the limiter does; an excluded operation is left as
 * it is.
 * <p>
 * springdoc caches the document once built: a table replaced at runtime shows in it after
 * a restart, or on every request with {@code springdoc.cache.disabled=true}.
 * <p>
 * It documents nothing before the application has started (a bean is told by
 * {@link #afterSingletonsInstantiated()}; one made by hand must be told the same way).
 */
public final class RateLimitOpenApiCustomizer implements GlobalOpenApiCustomizer, SmartInitializingSingleton {

	/** The name of the operation extension that lists the limits. */
	public static final String EXTENSION = "x-ratelimit";

	/** How long a document built while the application starts waits for the start. */
	private static final Duration START_TIMEOUT = Duration.ofMinutes(1);

	private static final String TOO_MANY_REQUESTS = "429";

	private static final String FORBIDDEN = "403";

	private static final String SERVICE_UNAVAILABLE = "503";

	private final EndpointClassifier classifier;

	private final RuntimeControl control;

	private final RateLimitResponses responses;

	private final FailureMode failureMode;

	private final CountDownLatch started = new CountDownLatch(1);

	/**
	 * Creates the customizer.
	 * @param classifier the classifier of the rate-limit filter
	 * @param control the runtime control: the policy table in force, access and ban rules
	 * @param headers the writer of the rate-limit headers
	 * @param bodyWriter the writer of refusal bodies
	 * @param failureMode what the limiter does when its store cannot decide
	 * ({@link FailureMode#CLOSED} answers 503)
	 */
	public RateLimitOpenApiCustomizer(EndpointClassifier classifier, RuntimeControl control, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, FailureMode failureMode) {
		Assert.notNull(classifier, "'classifier' must not be null");
		Assert.notNull(control, "'control' must not be null");
		Assert.notNull(headers, "'headers' must not be null");
		Assert.notNull(bodyWriter, "'bodyWriter' must not be null");
		Assert.notNull(failureMode, "'failureMode' must not be null");
		this.classifier = classifier;
		this.control = control;
		this.responses = new RateLimitResponses(headers, bodyWriter);
		this.failureMode = failureMode;
	}

	/**
	 * The handler mappings are complete: operations can be classified from now on.
	 */
	@Override
	public void afterSingletonsInstantiated() {
		this.started.countDown();
	}

	@Override
	public void customise(OpenAPI openApi) {
		awaitStart();
		if (openApi.getPaths() == null) {
			return;
		}
		PolicyTable table = this.control.table();
		// a deny rule or a ban refuses its caller on every operation that is not excluded
		boolean denies = this.control.rules().stream().anyMatch((rule) -> rule.access() == AccessRule.Access.DENY);
		boolean bans = bans(table);
		boolean documented = false;
		for (Map.Entry<String, PathItem> path : openApi.getPaths().entrySet()) {
			for (Map.Entry<PathItem.HttpMethod, Operation> operation : path.getValue().readOperationsMap().entrySet()) {
				Classification classification = this.classifier.classifyTemplate(operation.getKey().name(),
						path.getKey());
				if (!classification.excluded()) {
					documented |= document(operation.getValue(), OperationLimits.of(classification, table), denies,
							bans);
				}
			}
		}
		if (documented) {
			if (openApi.getComponents() == null) {
				openApi.setComponents(new Components());
			}
			this.responses.register(openApi.getComponents());
		}
	}

	/**
	 * springdoc may build the document while the application starts
	 * ({@code springdoc.pre-loading-enabled}, on a thread of its own): classifying then
	 * would read the {@code @RateLimited} handlers before their mappings are complete,
	 * and the classifier keeps what it read for the filter too. So wait for the start.
	 */
	private void awaitStart() {
		try {
			if (!this.started.await(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("The application did not start within " + START_TIMEOUT
						+ ": the rate limits of its operations cannot be documented before");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for the application to start", ex);
		}
	}

	/** Documents one operation's limits; answers whether it added anything. */
	private boolean document(Operation operation, OperationLimits limits, boolean denies, boolean bans) {
		boolean forbids = limits.forbids() || denies || bans;
		if (operation.getExtensions() != null && operation.getExtensions().containsKey(EXTENSION)) {
			// documented already (a document built twice from one model)
			return true;
		}
		if (!limits.any() && !forbids) {
			return false;
		}
		if (operation.getResponses() == null) {
			operation.setResponses(new ApiResponses());
		}
		ApiResponses responses = operation.getResponses();
		if (limits.any()) {
			operation.addExtension(EXTENSION, limits.extension());
			String description = operation.getDescription();
			operation.setDescription((description != null && !description.isBlank())
					? description + "\n\n" + limits.table() : limits.table());
			if (limits.reports()) {
				responses.forEach((status, response) -> {
					if (status.startsWith("2") && response.get$ref() == null) {
						addHeaders(response);
					}
				});
			}
		}
		// the application's own description of a status wins
		if (limits.rejects()) {
			responses.putIfAbsent(TOO_MANY_REQUESTS, this.responses.tooManyRequests());
		}
		if (forbids) {
			responses.putIfAbsent(FORBIDDEN, this.responses.forbidden(bans));
		}
		if (limits.any() && this.failureMode == FailureMode.CLOSED) {
			responses.putIfAbsent(SERVICE_UNAVAILABLE, this.responses.unavailable());
		}
		return true;
	}

	/** Adds the rate-limit headers to a response, leaving those it documents already. */
	private void addHeaders(ApiResponse response) {
		this.responses.limitHeaders().forEach((name, header) -> {
			if (response.getHeaders() == null || !response.getHeaders().containsKey(name)) {
				response.addHeaderObject(name, header);
			}
		});
	}

	/**
	 * Whether refusals of some tier in some group count towards a ban, or a ban is in
	 * force.
	 */
	private boolean bans(PolicyTable table) {
		if (!this.control.bans().isEmpty()) {
			return true;
		}
		for (String tier : table.tiers()) {
			for (String group : table.groups()) {
				if (this.control.banRule(tier, group) != null) {
					return true;
				}
			}
		}
		return false;
	}

}
