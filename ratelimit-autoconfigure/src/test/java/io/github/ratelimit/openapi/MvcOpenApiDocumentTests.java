package io.github.ratelimit.openapi;

import org.springframework.boot.WebApplicationType;

/** The OpenAPI document of an app on Spring MVC. */
class MvcOpenApiDocumentTests extends OpenApiDocumentTests {

	MvcOpenApiDocumentTests() {
		super(WebApplicationType.SERVLET);
	}

}
