package io.github.ratelimit.autoconfigure;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.junit.jupiter.api.Test;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.openapi.RateLimitOpenApiCustomizer;
import io.github.ratelimit.web.EndpointClassifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI customizer exists on both stacks when springdoc is present, and not without
 * springdoc, without a web stack, with rate limiting off, or beside one of the
 * application's own.
 */
class RateLimitOpenApiAutoConfigurationTests {

	private static final AutoConfigurations configurations = AutoConfigurations.of(RateLimitAutoConfiguration.class,
			RateLimitOpenApiAutoConfiguration.class);

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(configurations)
		.withPropertyValues("ratelimit.tiers.anonymous.ip.default=10/1m");

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(configurations)
		.withPropertyValues("ratelimit.tiers.anonymous.ip.default=10/1m");

	@Test
	void customizesTheDocumentOnSpringMvc() {
		this.servlet.run((context) -> assertThat(context).hasSingleBean(RateLimitOpenApiCustomizer.class));
	}

	@Test
	void customizesTheDocumentOnWebFlux() {
		this.reactive.run((context) -> assertThat(context).hasSingleBean(RateLimitOpenApiCustomizer.class));
	}

	@Test
	void closedFailureModeDocumentsServiceUnavailable() {
		this.servlet.withPropertyValues("ratelimit.storage.failure-mode=closed").run((context) -> {
			OpenAPI openApi = new OpenAPI().paths(new Paths().addPathItem("/v1/items",
					new PathItem().get(new Operation().responses(new ApiResponses()))));
			context.getBean(RateLimitOpenApiCustomizer.class).customise(openApi);
			assertThat(openApi.getPaths().get("/v1/items").getGet().getResponses()).containsKeys("429", "503");
		});
	}

	@Test
	void backsOffWithoutSpringdoc() {
		this.servlet.withClassLoader(new FilteredClassLoader(GlobalOpenApiCustomizer.class)).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(RateLimitOpenApiCustomizer.class);
		});
	}

	@Test
	void backsOffWithoutAWebApplication() {
		new ApplicationContextRunner().withConfiguration(configurations)
			.run((context) -> assertThat(context).doesNotHaveBean(RateLimitOpenApiCustomizer.class));
	}

	@Test
	void backsOffWhenRateLimitingIsOff() {
		this.servlet.withPropertyValues("ratelimit.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RateLimitOpenApiCustomizer.class));
	}

	@Test
	void backsOffWhenUserDefinesTheCustomizer() {
		this.servlet.withUserConfiguration(OwnCustomizer.class).run((context) -> {
			assertThat(context).hasSingleBean(RateLimitOpenApiCustomizer.class);
			assertThat(context).hasBean("ownCustomizer");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnCustomizer {

		@Bean
		RateLimitOpenApiCustomizer ownCustomizer(EndpointClassifier classifier, RuntimeControl control,
				RateLimitHeaders headers, RejectionBodyWriter bodyWriter) {
			return new RateLimitOpenApiCustomizer(classifier, control, headers, bodyWriter, FailureMode.CLOSED);
		}

	}

}
