/// Fetch a page.
async fn fetch(url: String) -> Result<String, FetchError> {
    todo!()
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
struct fetch {}
const _: () = {
    use ::codemode::__private::{
        Readable as _, Unreadable as _, ViaDisplay as _, ViaInto as _, ViaPlain as _,
        ViaResult as _,
    };
    const _: () = ::codemode::__private::assert_args::<String>();
    impl fetch {
        #[doc(hidden)]
        fn __codemode_def(_: impl ::core::marker::Sized) -> ::codemode::ToolDef {
            ::codemode::__private::tool_def(
                "fetch-page",
                "Fetch a page.",
                ::codemode::__private::args_schema(
                    &[
                        (&::codemode::__private::Param::<String>::new())
                            .schema("url", ::core::concat!()),
                    ],
                ),
                ::codemode::__private::output_schema(
                    &(&::codemode::__private::Probe::<Result<String, FetchError>>::new())
                        .kind(),
                ),
            )
        }
        #[doc(hidden)]
        async fn __codemode_call(
            args: ::codemode::__private::serde_json::Value,
            _: impl ::core::marker::Sized,
        ) -> ::core::result::Result<
            ::codemode::__private::serde_json::Value,
            ::codemode::ToolCallError,
        > {
            let mut __reader = ::codemode::__private::args(
                "fetch-page",
                args,
                &["url"],
            )?;
            let __codemode_arg0: String = (&::codemode::__private::Param::<
                String,
            >::new())
                .read(&mut __reader, "url")?;
            let __returned = ::codemode::__private::catch_async(
                    "fetch-page",
                    fetch(__codemode_arg0),
                )
                .await?;
            match ::codemode::__private::Split::split(
                &(&::codemode::__private::Probe::<Result<String, FetchError>>::new())
                    .kind(),
                __returned,
            ) {
                ::core::result::Result::Ok(value) => {
                    ::codemode::__private::serialize_output("fetch-page", value)
                }
                ::core::result::Result::Err(error) => {
                    ::core::result::Result::Err(
                        (&::codemode::__private::ErrProbe::of(&error))
                            .err_kind()
                            .convert("fetch-page", error),
                    )
                }
            }
        }
    }
    impl ::codemode::Tool for fetch {
        const NAME: &'static str = "fetch-page";
        const BLOCKING: bool = false;
        fn def() -> ::codemode::ToolDef {
            Self::__codemode_def(())
        }
        fn call(
            args: ::codemode::__private::serde_json::Value,
        ) -> impl ::core::future::Future<
            Output = ::core::result::Result<
                ::codemode::__private::serde_json::Value,
                ::codemode::ToolCallError,
            >,
        > + ::core::marker::Send {
            Self::__codemode_call(args, ())
        }
    }
};
