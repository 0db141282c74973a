package io.github.ratelimit.openapi;

import org.springframework.boot.WebApplicationType;

/** The OpenAPI document of an app on WebFlux. */
class WebFluxOpenApiDocumentTests extends OpenApiDocumentTests {

	WebFluxOpenApiDocumentTests() {
		super(WebApplicationType.REACTIVE);
	}

}
