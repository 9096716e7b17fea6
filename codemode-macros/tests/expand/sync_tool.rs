/// Add two numbers.
pub fn add(a: i64, b: Option<i64>) -> i64 {
    a + b.unwrap_or(0)
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
pub struct add {}
const _: () = {
    use ::codemode::__private::{
        Readable as _, Unreadable as _, ViaDisplay as _, ViaInto as _, ViaPlain as _,
        ViaResult as _,
    };
    const _: () = ::codemode::__private::assert_args::<i64>();
    const _: () = ::codemode::__private::assert_args::<Option<i64>>();
    impl add {
        #[doc(hidden)]
        fn __codemode_def(_: impl ::core::marker::Sized) -> ::codemode::ToolDef {
            ::codemode::__private::tool_def(
                "add",
                "Add two numbers.",
                ::codemode::__private::args_schema(
                    &[
                        (&::codemode::__private::Param::<i64>::new())
                            .schema("a", ::core::concat!("The first.")),
                        (&::codemode::__private::Param::<Option<i64>>::new())
                            .schema("b", ::core::concat!()),
                    ],
                ),
                ::codemode::__private::output_schema(
                    &(&::codemode::__private::Probe::<i64>::new()).kind(),
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
            let mut __reader = ::codemode::__private::args("add", args, &["a", "b"])?;
            let __codemode_arg0: i64 = (&::codemode::__private::Param::<i64>::new())
                .read(&mut __reader, "a")?;
            let __codemode_arg1: Option<i64> = (&::codemode::__private::Param::<
                Option<i64>,
            >::new())
                .read(&mut __reader, "b")?;
            let __returned = ::codemode::__private::catch_sync(
                "add",
                || add(__codemode_arg0, __codemode_arg1),
            )?;
            match ::codemode::__private::Split::split(
                &(&::codemode::__private::Probe::<i64>::new()).kind(),
                __returned,
            ) {
                ::core::result::Result::Ok(value) => {
                    ::codemode::__private::serialize_output("add", value)
                }
                ::core::result::Result::Err(error) => {
                    ::core::result::Result::Err(
                        (&::codemode::__private::ErrProbe::of(&error))
                            .err_kind()
                            .convert("add", error),
                    )
                }
            }
        }
    }
    impl ::codemode::Tool for add {
        const NAME: &'static str = "add";
        const BLOCKING: bool = true;
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
